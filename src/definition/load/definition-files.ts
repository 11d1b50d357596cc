/**
 * The files that make up a definition, and their hash: sha256 over agent.json, the
 * registry, every schema file, every prompt file (retry templates among them), the
 * system prompt and a `custom` completion type's handler module (verdict-handler-files.ts),
 * in sorted path order, each as `path NUL content NUL`. A run records this
 * hash to say which definition it used, and snapshots exactly these files at its start.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface DefinitionFiles {
  /** The agent directory: the hashed paths are relative to it. */
  readonly root: string;
  /** Absolute paths, each once. */
  readonly files: readonly string[];
  /** hashDefinitionFiles(root, files): the definition's hash before overrides. */
  readonly hash: string;
}

/** `files` without repeats (the system prompt is usually one of the prompt files too). */
export function uniqueFiles(files: readonly string[]): string[] {
  return [...new Set(files.map((f) => path.resolve(f)))];
}

/*
 * Why synchronous reads behind async signatures: a run's definition snapshot is hashed
 * again at every step that reads it (definition-snapshots.ts), a few dozen small local files in
 * a dozen nested prompt directories. Through fs/promises that took ~2 ms of the worker's
 * main-thread CPU per hash (a promise, a thread-pool hop and a FileHandle per call); the
 * same reads done synchronously take ~0.35 ms and block the event loop for as long.
 */

/** Every regular file under `dir` (recursively), relative to it and `/`-separated; [] if absent. */
export async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) =>
      path
        .relative(dir, path.join(e.parentPath ?? e.path, e.name))
        .split(path.sep)
        .join('/'),
    )
    .sort();
}

/** `files` are absolute; `root` makes the hashed paths independent of where the agent lives. */
export async function hashDefinitionFiles(root: string, files: readonly string[]): Promise<string> {
  const entries = files.map((abs) => ({ abs, rel: path.relative(root, abs).split(path.sep).join('/') }));
  entries.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const hash = createHash('sha256');
  for (const entry of entries) hash.update(entry.rel).update('\0').update(readFileSync(entry.abs)).update('\0');
  return hash.digest('hex');
}
