/**
 * `retry --prompt` of a run that already ended: the new run (same Workflow ID) carries the
 * prompt as its guidance, which its first model step reads as a retry signal's prompt. No
 * worker serves the runs here: what is checked is the input the server recorded.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { defaultPayloadConverter } from '@temporalio/common';
import type { RunInput, RunResult } from '../../src/contracts/run.js';
import { reviveFailedRun, staleEnvironmentNote } from '../../src/cli/revive-failed-run.js';
import type { CliTemporal } from '../../src/host/temporal/temporal-client.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';

let env: TestWorkflowEnvironment;
let cli: CliTemporal;
const taskQueue = `revive-${randomUUID()}`;

before(async () => {
  env = await testEnv();
  cli = {
    client: env.client,
    target: { address: serverAddress(env), namespace: env.namespace ?? 'default', uiUrl: '', started: false },
    taskQueue,
    close: async () => {},
  };
});
after(teardownEnv);

async function endedRun(input: Partial<RunInput>): Promise<string> {
  const workflowId = `revive-${randomUUID()}`;
  const handle = await env.client.workflow.start(runAgentWorkflow, {
    taskQueue,
    workflowId,
    args: [{ issue: 7, repoPath: '/nowhere', ...input } as RunInput],
  });
  await handle.terminate('ended for the test');
  return workflowId;
}

async function startInput(workflowId: string): Promise<RunInput> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  assert.ok(payload, 'the new run has a recorded input');
  return defaultPayloadConverter.fromPayload<RunInput>(payload);
}

test("a prompt given to retry becomes the new run's guidance, replacing the old run's", async () => {
  const workflowId = await endedRun({ guidance: 'the review said: rename it' });
  const revival = await reviveFailedRun(cli, workflowId, 'do not touch the test; fix parse()');
  assert.equal(revival.kind, 'revived');
  assert.match(revival.kind === 'revived' ? revival.message : '', /with your guidance for its first step/);
  const input = await startInput(workflowId);
  assert.equal(input.guidance, 'do not touch the test; fix parse()');
  assert.equal(input.issue, 7);
});

test("without a prompt the new run keeps the old run's guidance", async () => {
  const workflowId = await endedRun({ guidance: 'the review said: rename it' });
  const revival = await reviveFailedRun(cli, workflowId);
  assert.equal(revival.kind, 'revived');
  assert.doesNotMatch(revival.kind === 'revived' ? revival.message : '', /guidance/);
  assert.equal((await startInput(workflowId)).guidance, 'the review said: rename it');
});

test('a retry of a run that failed preparing its environment says it reuses that environment, and how to start from a fix', () => {
  const failed = {
    outcome: 'failed',
    code: 'ENVIRONMENT_FAILED',
    reason: 'preflight: `mvn -B test` cannot run',
    steps: [],
    worktreePath: '/w/issue-3',
    branch: 'agent/issue-3',
  } as unknown as RunResult;
  const input = { issue: 3, repoPath: '/r/my repo' } as RunInput;
  const note = staleEnvironmentNote(failed, input);
  assert.match(note, /reuses the worktree and the environment prepared then \(setup never runs twice in a worktree\)/);
  assert.match(note, /issue-agent cancel --issue 3 --repo '\/r\/my repo'/);
  assert.match(
    note,
    /git -C '\/r\/my repo' worktree remove --force \/w\/issue-3 && git -C '\/r\/my repo' branch -D agent\/issue-3/,
  );
  assert.match(note, /issue-agent start-run --issue 3 --repo '\/r\/my repo'` starts from the fix/);
  // Once a step ran, or for any other failure, a retry resumes as it says: no note.
  assert.equal(staleEnvironmentNote({ ...failed, steps: [{}] } as unknown as RunResult, input), '');
  assert.equal(staleEnvironmentNote({ ...failed, code: 'VALIDATION_ABORTED' } as RunResult, input), '');
  assert.equal(staleEnvironmentNote(undefined, input), '');
});
