/**
 * Pure unit tests of the tool policy (no model, no sandbox): which tools each step kind
 * is offered, what a read-only step's tools refuse, and what a step's `readOnly` /
 * `permissionMode` and the agent's `allowedTools` grant. The table of
 * docs/registry-reference.md §2.2 is read and checked row by row against the code, so
 * the docs and the tests cannot drift apart.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkReadOnly } from '../../../src/activities/tools/bash-policy.js';
import { executeTool, stepTools, toolPolicyFor } from '../../../src/activities/tools/tool-dispatcher.js';
import type { GitHubToolBackend } from '../../../src/activities/tools/github-tool-backend.js';
import { STEP_KIND_ACCESS, stepReadOnly } from '../../../src/contracts/step-kind-tools.js';
import type { StepKind } from '../../../src/contracts/intents.js';
import { readOnlyByAllowedTools } from '../../../src/definition/rules/boundary-rules.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { toolContext } from './tool-fixtures.js';

const KINDS: readonly StepKind[] = ['work', 'verification', 'closure'];
const EDITOR = 'str_replace_based_edit_tool';

/** A github backend that must never be reached by a refused action. */
const unreachableBackend = {
  kind: 'local',
  declaredLabels: [],
  readIssue: () => Promise.reject(new Error('not reached')),
  readPullRequest: () => Promise.reject(new Error('not reached')),
  comment: () => Promise.reject(new Error('comment reached')),
  relabel: () => Promise.reject(new Error('relabel reached')),
  redact: (t: string) => t,
} as unknown as GitHubToolBackend;

test('tools offered per kind: bash, editor and TodoWrite always; github only with GitHub integration; ask in a run', () => {
  for (const kind of KINDS) {
    for (const readOnly of [false, true]) {
      assert.deepEqual(toolPolicyFor(kind, readOnly).tools, ['bash', EDITOR, 'TodoWrite'], `${kind} ${readOnly}`);
      assert.deepEqual(toolPolicyFor(kind, readOnly).github, []);
      assert.deepEqual(
        toolPolicyFor(kind, readOnly, { github: true }).tools,
        ['bash', EDITOR, 'TodoWrite', 'github'],
        `${kind} ${readOnly} with github`,
      );
    }
  }
  // What the model is shown is exactly what the policy offers; a step of a run may also ask.
  const run = { workflowId: 'w', issue: 1, artifactsDir: '/x', github: unreachableBackend };
  assert.deepEqual(
    stepTools({ stepKind: 'verification', readOnly: true, run }).map((t) => t.name),
    ['bash', EDITOR, 'TodoWrite', 'github', 'ask'],
  );
  for (const kind of KINDS) assert.ok(toolPolicyFor(kind, true, { github: false, ask: true }).tools.includes('ask'));
});

test('writes follow the resolved readOnly only: the kind sets the default, not the policy', () => {
  for (const kind of KINDS) {
    assert.equal(toolPolicyFor(kind, true).editorWrites, false, kind);
    assert.equal(toolPolicyFor(kind, true).bashWrites, false, kind);
    assert.equal(toolPolicyFor(kind, false).editorWrites, true, kind);
    assert.equal(toolPolicyFor(kind, false).bashWrites, true, kind);
  }
});

test('what permissionMode, readOnly and allowedTools grant', () => {
  // Kind defaults: only verification is read-only.
  assert.deepEqual(
    KINDS.map((k) => stepReadOnly(k, undefined, undefined)),
    [false, true, false],
  );
  // A step's permissionMode: plan reads, the other modes write (verification included).
  for (const kind of KINDS) {
    assert.equal(stepReadOnly(kind, undefined, 'plan'), true, kind);
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions']) {
      assert.equal(stepReadOnly(kind, undefined, mode), false, `${kind} ${mode}`);
    }
    // An unknown mode is not a grant: the kind's default stays.
    assert.equal(stepReadOnly(kind, undefined, 'yolo'), kind === 'verification', kind);
    // The step's own readOnly wins over its permissionMode.
    assert.equal(stepReadOnly(kind, true, 'acceptEdits'), true);
    assert.equal(stepReadOnly(kind, false, 'plan'), false);
  }
  // allowedTools: a list with no write tool makes every step read-only; a write tool or '*' does not.
  assert.equal(readOnlyByAllowedTools(undefined), false);
  assert.equal(readOnlyByAllowedTools(['Read', 'Glob', 'Grep']), true);
  assert.equal(readOnlyByAllowedTools(['Read', 'TodoWrite', 'mcp__github__github_read']), true);
  for (const writer of ['Write', 'Edit', 'MultiEdit', 'Bash', '*']) {
    assert.equal(readOnlyByAllowedTools(['Read', writer]), false, writer);
  }
});

test('a verification step refuses editor writes by default; view still works; nothing changes', async () => {
  const ctx = toolContext({ stepKind: 'verification', readOnly: stepReadOnly('verification', undefined, undefined) });
  writeFileSync(path.join(ctx.worktreePath, 'a.js'), 'const a = 1;\n');
  const calls = [
    { command: 'create', path: 'new.js', file_text: 'x\n' },
    { command: 'str_replace', path: 'a.js', old_str: '1', new_str: '2' },
    { command: 'insert', path: 'a.js', insert_line: 0, insert_text: '// x\n' },
  ];
  for (const input of calls) {
    const result = await executeTool({ id: '1', name: EDITOR, input }, ctx, 'l');
    assert.equal(result.isError, true, input.command);
    assert.match(result.content, new RegExp(`read-only: ${input.command} is not allowed`));
  }
  assert.equal(readFileSync(path.join(ctx.worktreePath, 'a.js'), 'utf8'), 'const a = 1;\n');
  assert.equal(existsSync(path.join(ctx.worktreePath, 'new.js')), false);
  const view = await executeTool({ id: '2', name: EDITOR, input: { command: 'view', path: 'a.js' } }, ctx, 'l');
  assert.equal(view.isError, false, view.content);
  // The same step with permissionMode acceptEdits may write.
  const granted = toolContext({
    worktreePath: ctx.worktreePath,
    stepKind: 'verification',
    readOnly: stepReadOnly('verification', undefined, 'acceptEdits'),
  });
  const created = await executeTool({ id: '3', name: EDITOR, input: calls[0] }, granted, 'l');
  assert.equal(created.isError, false, created.content);
  assert.equal(existsSync(path.join(ctx.worktreePath, 'new.js')), true);
});

test('a tool the step is not offered is refused by name, with what is available', async () => {
  const ctx = toolContext({ stepKind: 'closure', readOnly: false });
  const result = await executeTool({ id: '1', name: 'github', input: { action: 'issue_view' } }, ctx, 'l');
  assert.equal(result.isError, true);
  assert.match(result.content, /tool github is not available in a closure step\. Available: bash, /);
  const web = await executeTool({ id: '2', name: 'WebFetch', input: {} }, ctx, 'l');
  assert.match(web.content, /tool WebFetch is not available/);
});

test('github actions per kind: comment and set_labels only in closure, refused before the backend', async () => {
  for (const kind of ['work', 'verification'] as const) {
    const ctx = toolContext({
      stepKind: kind,
      readOnly: stepReadOnly(kind, undefined, undefined),
      run: { workflowId: 'w', issue: 1, artifactsDir: '/x', github: unreachableBackend },
    });
    for (const input of [
      { action: 'comment', body: 'hi' },
      { action: 'set_labels', add: ['x'] },
    ]) {
      const result = await executeTool({ id: '1', name: 'github', input }, ctx, 'l');
      assert.equal(result.isError, true, `${kind} ${input.action}`);
      assert.match(result.content, new RegExp(`${input.action} is not allowed in a ${kind} step`));
    }
  }
  assert.deepEqual(STEP_KIND_ACCESS.closure.github, ['issue_view', 'pr_view', 'comment', 'set_labels']);
});

test('read-only bash guard (no mount namespace): file-changing commands refused, inspection allowed', () => {
  const refused = [
    'rm -rf src',
    'mv a b',
    'cp a b',
    'mkdir x',
    'touch a',
    'echo x > file.txt',
    'cat a >> b',
    'sed -i s/a/b/ f',
    'perl -pi -e s/a/b/ f',
    'git commit -am x',
    'git add .',
    'git checkout -- f',
    'git -C sub reset --hard',
    'git stash',
    'git branch -D old',
    'npm install lodash',
    'pnpm add x',
    'pip install requests',
    'cargo install ripgrep',
    'ls; rm a',
    'true && touch b',
  ];
  for (const command of refused) {
    const verdict = checkReadOnly(command);
    assert.equal(verdict.allowed, false, command);
    assert.match(verdict.reason ?? '', /^Refused: this step is read-only/);
  }
  const allowed = [
    'cat f 2>/dev/null',
    'grep -rn foo . 2>&1 | head',
    'git diff --stat',
    'git log --oneline -5',
    'git status',
    'git branch --list',
    'npm test > /dev/null',
    'npm test --silent',
    'ls -la',
    'node --test test/',
    'find . -name "*.ts"',
  ];
  for (const command of allowed) assert.equal(checkReadOnly(command).allowed, true, command);
});

/** The rows of the marked table of §2.2 "Tools by step kind" in docs/registry-reference.md. */
function docsToolTable(): Map<string, string[]> {
  const text = readFileSync(path.join(PROJECT_ROOT, 'docs', 'registry-reference.md'), 'utf8');
  const start = text.indexOf('<!-- tools-table: test/activities/tools/tool-policy.test.ts -->');
  assert.ok(start > 0, 'the table is marked in the docs');
  const rows = new Map<string, string[]>();
  for (const line of text.slice(start).split('\n').slice(1)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((c) => c.trim());
    if (cells[1] === 'kind' || cells[1]?.startsWith('---')) continue;
    rows.set(cells[1]!, cells.slice(2, -1));
  }
  return rows;
}

test('the docs table of tools by step kind says what the code does, row by row', () => {
  const rows = docsToolTable();
  assert.deepEqual([...rows.keys()], [...KINDS], 'one row per kind');
  for (const kind of KINDS) {
    const [editor, bash, todo, github] = rows.get(kind)!;
    const policy = toolPolicyFor(kind, stepReadOnly(kind, undefined, undefined), { github: true });
    const plain = (s: string | undefined): string => (s ?? '').replace(/\*\*/g, '');
    assert.equal(plain(editor), policy.editorWrites ? 'view and edit' : 'view only', `${kind} editor`);
    assert.equal(plain(bash), policy.bashWrites ? 'worktree writable' : 'worktree read-only', `${kind} bash`);
    assert.equal(todo, policy.tools.includes('TodoWrite' as never) ? 'yes' : 'no', `${kind} TodoWrite`);
    assert.deepEqual(
      (github ?? '').split(',').map((a) => a.trim().replace(/`/g, '')),
      [...policy.github],
      `${kind} github`,
    );
  }
});

test("the harness's environment step: bash and a view-only editor, whatever the run offers; no todo, github or ask", async () => {
  for (const readOnly of [true, false]) {
    const policy = toolPolicyFor('environment', readOnly, { github: true, ask: true });
    assert.deepEqual(policy, { tools: ['bash', EDITOR], editorWrites: false, bashWrites: false, github: [] });
  }
  const ctx = toolContext({ stepKind: 'environment', readOnly: false });
  const created = await executeTool(
    { id: 't1', name: EDITOR, input: { command: 'create', path: 'new.txt', file_text: 'x' } },
    ctx,
    't1',
  );
  assert.equal(created.isError, true, 'the editor refuses a write even when the step says it may');
  assert.equal(existsSync(path.join(ctx.worktreePath, 'new.txt')), false);
});
