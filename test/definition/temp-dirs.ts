/** Test helpers: temp directories and fixture copies for configuration tests. */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';

export const FIXTURES = fileURLToPath(new URL('../fixtures/definitions/', import.meta.url));

const created: string[] = [];
after(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'cfg-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** A writable copy of `test/fixtures/definitions/<relative>`. */
export function copyFixture(relative: string): string {
  const dir = tempDir();
  cpSync(path.join(FIXTURES, relative), dir, { recursive: true });
  return dir;
}

export function writeText(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

export function writeJson(dir: string, file: string, value: unknown): void {
  writeText(dir, file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Reads, edits and rewrites a JSON file in place. */
export function editJson<T = Record<string, any>>(dir: string, file: string, edit: (value: T) => void): void {
  const value = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as T;
  edit(value);
  writeJson(dir, file, value);
}
