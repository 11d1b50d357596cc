/**
 * reportFatal: an SDK error is shown with its cause, never a bare `Failed to start
 * Workflow` (the real shape: a ServiceError wrapping the gRPC error of the server).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError } from '@temporalio/client';
import { describeWithCauses, reportFatal } from '../../src/host/report-error.js';

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
