/**
 * Tools by step kind (seed 004 §7.2): the per-kind table, the loader's readOnly default,
 * and the acceptance case: a verification step of the default agent, whose scripted
 * model tries to edit a file through the editor and through bash, is refused each
 * time, sees the refusal, and the file is unchanged.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runQueryStep } from '../../../src/activities/model/query-step.js';
import { stepTools, toolPolicyFor } from '../../../src/activities/tools/tool-dispatcher.js';
import { stepReadOnly, STEP_KIND_ACCESS } from '../../../src/contracts/step-kind-tools.js';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { makeRepo, recordingCtx, stepInput, withServer } from '../model/step-fixtures.js';

test('per-kind table: work and closure write, verification reads; only closure comments and labels', () => {
  assert.deepEqual(Object.fromEntries(Object.entries(STEP_KIND_ACCESS).map(([k, a]) => [k, a.writesByDefault])), {
    work: true,
    verification: false,
    closure: true,
  });
  assert.deepEqual(toolPolicyFor('work', false, { github: true }).github, ['issue_view', 'pr_view']);
  assert.deepEqual(toolPolicyFor('verification', true, { github: true }).github, ['issue_view', 'pr_view']);
  assert.deepEqual(toolPolicyFor('closure', false, { github: true }).github, [
    'issue_view',
    'pr_view',
    'comment',
    'set_labels',
  ]);
  const readOnly = toolPolicyFor('verification', true);
  assert.equal(readOnly.editorWrites, false);
  assert.equal(readOnly.bashWrites, false);
  assert.deepEqual(readOnly.tools, ['bash', 'str_replace_based_edit_tool', 'TodoWrite'], 'no github tool without it');
  assert.deepEqual(
    stepTools({ stepKind: 'closure', readOnly: false, run: { workflowId: 'w', issue: 1, artifactsDir: '/x' } }).map(
      (t) => t.name,
    ),
    ['bash', 'str_replace_based_edit_tool', 'TodoWrite', 'ask'],
    'a step of a run may ask',
  );
});

test('readOnly precedence: the step readOnly, else the step permissionMode, else the kind default', () => {
  assert.equal(stepReadOnly('verification', undefined, undefined), true);
  assert.equal(stepReadOnly('verification', undefined, 'acceptEdits'), false);
  assert.equal(stepReadOnly('verification', false, 'plan'), false);
  assert.equal(stepReadOnly('work', undefined, undefined), false);
  assert.equal(stepReadOnly('work', undefined, 'plan'), true);
  assert.equal(stepReadOnly('closure', true, undefined), true);
});

test("the default agent's verification step is read-only by default; its work and closure steps are not", async () => {
  const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const flags = Object.fromEntries(Object.values(definition.steps).map((s) => [s.stepId, s.readOnly]));
  assert.deepEqual(flags, {
    'initial.understand': false,
    'continuation.reproduce': false,
    'continuation.implement': false,
    'verification.review': true,
    'closure.issue': false,
  });
});

const P = 'STEP verification.review';

test('a verification step that tries to edit a file is refused (editor and bash) and the file is unchanged', async () => {
  const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const review = definition.steps['verification.review'];
  assert.ok(review);
  const worktree = makeRepo();
  const before = readFileSync(path.join(worktree, 'sum.js'), 'utf8');
  const editor = 'str_replace_based_edit_tool';
  const script: SessionScript = {
    name: 'verification-edit',
    rules: [
      {
        id: 'editor-replace',
        when: { promptContains: P, turn: 0 },
        respond: {
          toolUse: [
            { name: editor, input: { command: 'str_replace', path: 'sum.js', old_str: 'a - b', new_str: 'a + b' } },
          ],
        },
      },
      {
        id: 'editor-create',
        when: { promptContains: P, turn: 1, lastToolResultContains: 'read-only' },
        respond: { toolUse: [{ name: editor, input: { command: 'create', path: 'new.js', file_text: 'x\n' } }] },
      },
      {
        id: 'bash-redirect',
        when: { promptContains: P, turn: 2, lastToolResultContains: 'read-only' },
        respond: { toolUse: [{ name: 'bash', input: { command: "echo 'export const sum = 0;' > sum.js" } }] },
      },
      {
        id: 'bash-sed',
        // 'Read-only file system' (mount namespace) or 'Refused: this step is read-only' (pattern guard).
        when: { promptContains: P, turn: 3, lastToolResultContains: 'ead-only' },
        respond: { toolUse: [{ name: 'bash', input: { command: "sed -i 's/-/+/' sum.js; touch made-by-bash" } }] },
      },
      {
        id: 'answer',
        when: { promptContains: P, turn: 4 },
        respond: {
          json: { stepId: 'verification.review', summary: 'could not edit', next_action: { action: 'next' } },
        },
      },
    ],
  };
  await withServer(script, async (server, deps) => {
    const input = stepInput({
      worktreePath: worktree,
      stepId: review.stepId,
      stepKind: review.stepKind,
      readOnly: review.readOnly,
      prompt: `${P}: review the change.`,
    });
    const out = await runQueryStep({ ...deps, keepAliveMs: 600_000 }, input, recordingCtx());
    assert.equal(out.turns, 5, 'every refusal was seen by the next turn (the rules require it)');
    assert.equal(server.stats().unmatched, 0);
    const transcript = JSON.parse(readFileSync(out.transcript.path, 'utf8')) as {
      messages: Array<{ role: string; content: Array<{ type: string; content?: string; is_error?: boolean }> }>;
    };
    const results = transcript.messages
      .flatMap((m) => m.content)
      .filter((b) => b.type === 'tool_result')
      .map((b) => b.content ?? '');
    assert.equal(results.length, 4);
    assert.match(results[0]!, /read-only: str_replace is not allowed/);
    assert.match(results[1]!, /read-only: create is not allowed/);
    // Bash: the sandbox mounts the worktree read-only (or, without namespaces, the pattern guard refuses).
    for (const r of results.slice(2)) assert.match(r, /Read-only file system|Refused: this step is read-only/);
  });
  assert.equal(readFileSync(path.join(worktree, 'sum.js'), 'utf8'), before, 'sum.js unchanged');
  assert.equal(existsSync(path.join(worktree, 'new.js')), false);
  assert.equal(existsSync(path.join(worktree, 'made-by-bash')), false);
});
