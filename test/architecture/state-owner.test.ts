/**
 * Every workflow's state has one owner of one shape (src/workflows/session/state-owner.ts):
 * run, batch, pipeline and watch each have a session that extends StateOwner, and their
 * state changes only by a named, pure transition of the workflow's `state/` folder handed
 * to `session.apply` or `session.take`. This reads the workflow sources and fails naming
 * each spot that would bring back an unnamed change (a copy-and-change of the state, a
 * call of a setter, an inline function handed to apply/take, a write to a session field)
 * or a second holder (a class that is not a session, or state kept by a module).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const WORKFLOWS = join(ROOT, 'src', 'workflows');
const OWNER = join(WORKFLOWS, 'session', 'state-owner.ts');

/** The four workflows, each with its session and its folder of named transitions. */
const SESSIONS = [
  { name: 'RunSession', file: 'run/state/run-session.ts', transitions: 'run/state/run-transitions.ts' },
  { name: 'BatchSession', file: 'batch/batch-session.ts', transitions: 'batch/state/batch-transitions.ts' },
  {
    name: 'PipelineSession',
    file: 'pipeline/pipeline-session.ts',
    transitions: 'pipeline/state/pipeline-transitions.ts',
  },
  { name: 'WatchSession', file: 'watch/watch-session.ts', transitions: 'watch/state/watch-transitions.ts' },
] as const;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Files where the state may be built: the `state/` folders and the owner itself. */
const insideOwner = (file: string): boolean => file === OWNER || file.split(sep).includes('state');

const UNNAMED_CHANGES = [
  /\.\.\.\s*session\.state\b/,
  /session\.(update|set[A-Z]?\w*State)\(/,
  /session\.(apply|take)\(\s*(\(|function\b|async\b|[A-Za-z_$][\w$]*\s*=>)/,
  /\bsession\.(?:[\w$]+\.)*[\w$]+\s*(?:=(?![=>])|\+\+|--|[-+*/]=)/,
  /\bsession\.state\.(?:[\w$]+\.)*(?:push|splice|pop|shift|unshift|set|delete)\(/,
];

export function unnamedChanges(text: string): number[] {
  return text.split('\n').flatMap((line, i) => (UNNAMED_CHANGES.some((p) => p.test(line)) ? [i + 1] : []));
}

test('the patterns catch a setter call, an inline function, a field write and a state copy', () => {
  const planted = [
    'session.update(next);',
    'session.apply((s) => ({ ...s, x: 1 }));',
    'session.take(function (s) { return { state: s }; });',
    'session.apply(s => s);',
    'session.stopping = true;',
    'session.polls++;',
    'session.state.history.push(t);',
    'const s = { ...session.state, paused: true };',
  ];
  assert.deepEqual(unnamedChanges(planted.join('\n')), [1, 2, 3, 4, 5, 6, 7, 8]);
  const fine = ['session.apply(goToStep, next);', 'if (session.polls === 3) return;', 'const s = session.state;'];
  assert.deepEqual(unnamedChanges(fine.join('\n')), []);
});

test('each workflow state changes only through the named transitions of its state/ folder', () => {
  const found: string[] = [];
  for (const file of tsFiles(WORKFLOWS)) {
    if (insideOwner(file)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const n of unnamedChanges(lines.join('\n')))
      found.push(`${relative(ROOT, file)}:${n}: ${lines[n - 1]!.trim()}`);
  }
  assert.deepEqual(found, [], `unnamed state changes outside the state/ folders:\n${found.join('\n')}`);
});

test('the four sessions share the owner shape; their transitions are pure', () => {
  for (const s of SESSIONS) {
    const text = readFileSync(join(WORKFLOWS, s.file), 'utf8');
    assert.match(text, new RegExp(`class ${s.name} extends StateOwner<`), `${s.file}: ${s.name} extends StateOwner`);
    const transitions = join(WORKFLOWS, s.transitions);
    assert.ok(existsSync(transitions), `${s.transitions} holds the named transitions`);
    assert.doesNotMatch(readFileSync(transitions, 'utf8'), /@temporalio\//, `${s.transitions} is pure`);
  }
  const owner = readFileSync(OWNER, 'utf8');
  assert.match(owner, /#state: S;/, 'the state field is private');
  assert.match(owner, /#update\(next: S\)/, 'the setter is private');
});

test('no second holder: every class of workflow code is a session (or the owner shape)', () => {
  const sessions = new Set<string>(SESSIONS.map((s) => s.name));
  const found: string[] = [];
  for (const file of tsFiles(WORKFLOWS)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^\s*(?:export\s+)?(?:abstract\s+)?class\s+(\w+)/gm)) {
      const name = m[1]!;
      if (name !== 'StateOwner' && !sessions.has(name)) found.push(`${relative(ROOT, file)}: class ${name}`);
    }
  }
  assert.deepEqual(found, [], `classes that hold workflow state beside the sessions:\n${found.join('\n')}`);
});

test('no second holder: no module of workflow code keeps mutable state of its own', () => {
  const found: string[] = [];
  const moduleState = /^(?:export\s+)?(?:let\s|var\s|const\s+[\w$]+(?::[^=]+)?=\s*(?:new\s+(?:Map|Set|Array)\b|\[\]))/;
  for (const file of tsFiles(WORKFLOWS))
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (moduleState.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
  assert.deepEqual(found, [], `module-level state in workflow code:\n${found.join('\n')}`);
});
