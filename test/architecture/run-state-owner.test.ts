/**
 * RunState has one owner, src/workflows/run/state/: every change is a named transition
 * there, handed to `session.apply` or `session.take` (the state's setter is private to the
 * session). A copy-and-change of the state elsewhere (`{ ...session.state, x }`) or an
 * inline function handed to apply/take would bring back unnamed transitions, so this reads
 * the workflow sources and fails naming each such spot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const WORKFLOWS = join(ROOT, 'src', 'workflows');
const STATE = join(WORKFLOWS, 'run', 'state');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const UNNAMED_TRANSITIONS = [
  /\.\.\.\s*session\.state\b/,
  /session\.update\(/,
  /session\.(apply|take)\(\s*(\(|function\b|async\b|[A-Za-z_$][\w$]*\s*=>)/,
];

test('RunState changes only through the named transitions of run/state/', () => {
  const found: string[] = [];
  for (const file of tsFiles(WORKFLOWS)) {
    if (file.startsWith(STATE + sep)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (UNNAMED_TRANSITIONS.some((p) => p.test(line)))
          found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, [], `state copies outside src/workflows/run/state/:\n${found.join('\n')}`);
});
