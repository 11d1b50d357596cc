/**
 * The files that make up a definition, and their hash: sha256 over agent.json, the
 * registry, every schema file, every prompt file (retry templates among them) and the
 * system prompt, in sorted path order, each as `path NUL content NUL`. A run records this
 * hash to say which definition it used, and snapshots exactly these files at its start.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
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

/** Every regular file under `dir` (recursively), relative to it and `/`-separated; [] if absent. */
export async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
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
  const contents = await Promise.all(entries.map((e) => readFile(e.abs)));
  const hash = createHash('sha256');
  entries.forEach((entry, i) => {
    hash
      .update(entry.rel)
      .update('\0')
      .update(contents[i] ?? Buffer.alloc(0))
      .update('\0');
  });
  return hash.digest('hex');
}
