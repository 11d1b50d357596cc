/**
 * The house rules a newcomer relies on, checked on the tree itself: one file name means
 * one concept (no two files in src/ share a name) and files stay small (at most 250
 * lines). Who may change run state is checked by run-state-owner.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const MAX_LINES = 250;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC);

test('no two files in src/ share a name', () => {
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), relative(ROOT, file)]);
  const shared = [...byName.values()].filter((paths) => paths.length > 1);
  assert.deepEqual(shared, []);
});

test(`no file in src/ is over ${MAX_LINES} lines`, () => {
  const long = files
    .map((file) => [relative(ROOT, file), readFileSync(file, 'utf8').split('\n').length - 1] as const)
    .filter(([, lines]) => lines > MAX_LINES);
  assert.deepEqual(long, []);
});
