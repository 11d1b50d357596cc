/**
 * The environment phase as one activity call: both parts run, in order; a preflight that
 * stops the run comes back as a result beside the environment's report (the workflow
 * raises it), and anything retryable is thrown so the call is retried.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { prepareEnvironmentAndPreflight } from '../../src/activities/prepare-environment-and-preflight.js';
import type { EnvironmentReport } from '../../src/contracts/environment.js';
import type { PreflightReport } from '../../src/contracts/preflight.js';
import type { EnvironmentAndPreflightInput } from '../../src/contracts/environment-and-preflight.js';

const environment = { detected: ['npm: package-lock.json'] } as unknown as EnvironmentReport;
const preflight = { checks: [] } as unknown as PreflightReport;
const input = {
  environment: { worktreePath: '/wt', repoPath: '/repo' },
  preflight: { worktreePath: '/wt', completionSteps: [], validators: {} },
} as unknown as EnvironmentAndPreflightInput;

function parts(runPreflight: () => Promise<PreflightReport>, calls: string[] = []) {
  return {
    prepareEnvironment: async (i: unknown) => {
      calls.push('environment');
      assert.equal(i, input.environment);
      return environment;
    },
    runPreflight: async (i: unknown) => {
      calls.push('preflight');
      assert.equal(i, input.preflight);
      return runPreflight();
    },
  };
}

test('runs the setup, then the preflight, and returns both reports', async () => {
  const calls: string[] = [];
  const out = await prepareEnvironmentAndPreflight(parts(async () => preflight, calls))(input);
  assert.deepEqual(calls, ['environment', 'preflight']);
  assert.deepEqual(out, { environment, preflight });
});

test("a preflight's non-retryable failure is returned with the environment's report", async () => {
  const details = { validator: 'tests', stop: 'cannot-run', command: 'npm test' };
  const stop = ApplicationFailure.create({
    type: 'ENVIRONMENT_FAILED',
    message: 'cannot run',
    details: [details],
    nonRetryable: true,
  });
  const out = await prepareEnvironmentAndPreflight(parts(() => Promise.reject(stop)))(input);
  assert.deepEqual(out, {
    environment,
    stopped: { type: 'ENVIRONMENT_FAILED', message: 'cannot run', details: [details] },
  });
});

test('a retryable failure of either part is thrown (the call is retried)', async () => {
  const transient = ApplicationFailure.create({ type: 'X', message: 'lost', nonRetryable: false });
  await assert.rejects(prepareEnvironmentAndPreflight(parts(() => Promise.reject(transient)))(input), /lost/);
  await assert.rejects(prepareEnvironmentAndPreflight(parts(() => Promise.reject(new Error('boom'))))(input), /boom/);
  const failingSetup = {
    ...parts(async () => preflight),
    prepareEnvironment: () => Promise.reject(new Error('setup')),
  };
  await assert.rejects(prepareEnvironmentAndPreflight(failingSetup)(input), /setup/);
});
