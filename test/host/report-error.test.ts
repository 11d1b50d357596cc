/**
 * reportFatal: an SDK error is shown with its cause, never a bare `Failed to start
 * Workflow` (the real shape: a ServiceError wrapping the gRPC error of the server), and
 * what an error quotes of a run or a repository reaches the terminal as visible escapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError } from '@temporalio/client';
import { AgentError } from '../../src/contracts/errors.js';
import { describeWithCauses, reportFatal } from '../../src/host/report-error.js';
import { assertTerminalSafe, HOSTILE } from '../helpers/hostile-text.js';

function grpcError(code: number, details: string): Error {
  const names: Record<number, string> = { 3: 'INVALID_ARGUMENT', 7: 'PERMISSION_DENIED' };
  return Object.assign(new Error(`${code} ${names[code]}: ${details}`), { code, details });
}

function captureStderr(run: () => number): { code: number; text: string } {
  const write = process.stderr.write.bind(process.stderr);
  let text = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: run(), text };
  } finally {
    process.stderr.write = write;
  }
}

test('a start failure prints the server reason after the SDK message', () => {
  const cause = grpcError(3, 'Namespace default has no mapping defined for search attribute RepoId');
  const err = new ServiceError('Failed to start Workflow', { cause });
  const { code, text } = captureStderr(() => reportFatal(err));
  assert.equal(code, 1);
  assert.equal(
    text,
    'error: Failed to start Workflow: 3 INVALID_ARGUMENT: Namespace default has no mapping defined for search attribute RepoId\n',
  );
});

test('the cause chain is walked to the end, without repeating a reason or looping', () => {
  const inner = grpcError(7, 'Request unauthorized.');
  const middle = new Error('unable to add', { cause: inner });
  const outer = new Error('Failed to start Workflow', { cause: middle });
  assert.equal(
    describeWithCauses(outer),
    'Failed to start Workflow: unable to add: 7 PERMISSION_DENIED: Request unauthorized.',
  );
  const a = new Error('a');
  const b = new Error('b', { cause: a });
  (a as { cause?: unknown }).cause = b;
  assert.equal(describeWithCauses(b), 'b: a');
  const same = new Error('boom', { cause: new Error('boom') });
  assert.equal(describeWithCauses(same), 'boom');
  assert.equal(describeWithCauses('plain'), 'plain');
});

test('an error quoting a run, a model or a repository (a reason, a title, a file name) drives no terminal', () => {
  const own = captureStderr(() =>
    reportFatal(new AgentError('RUN_NOT_FOUND', `no run of issue "${HOSTILE}"`, { where: '--issue', expected: 'x' })),
  );
  assert.equal(own.code, 1);
  assertTerminalSafe(own.text, 'an AgentError');
  assert.match(own.text, /^error: .*no run of issue "Done \\x1b\]52;c;/);
  const failed = new Error('Workflow execution failed', { cause: new Error(`aborted: ${HOSTILE}`) });
  const sdk = captureStderr(() => reportFatal(failed));
  assertTerminalSafe(sdk.text, 'an SDK error with its cause');
  assert.match(sdk.text, /^error: Workflow execution failed: aborted: Done \\x1b\]52;c;/);
  assert.equal(sdk.text.split('\n').length, 2, 'one line');
});
