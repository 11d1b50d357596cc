/**
 * A run that cannot finish never starts (issue 37, issue 41's first bullets): fresh clones
 * where the test command cannot run on the base, hidden behind a wrapper's exit code,
 * end ENVIRONMENT_FAILED with zero model requests, naming the command and what to
 * configure, instead of recording "failing-on-base" and paying for three closings.
 *   - nothing detected: the default agent's `npm test --silent` exits 254 with no output
 *     (no package.json);
 *   - `make test` detected, its recipe calls `uv`, which is not installed: make reports
 *     `Error 127` and exits 2.
 * The repositories turn the agent-written setup off (`environment.agentSetup: false`), which
 * would otherwise ask the model for a setup first (docs/environments/agent-setup.md,
 * test/e2e/agent-setup.test.ts): this is the stop a user who turned it off gets.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';

const ISSUE = {
  title: 'median() is wrong for an even number of values',
  body: 'median([1, 2, 3, 4]) returns 3; it should return 2.5.',
};
const SESSION = fixSession({
  name: 'median',
  fix: { path: 'stats.txt', old: 'median: middle', new: 'median: mean of the two middle values' },
  testCommand: 'make test',
});
const FILES = {
  'README.md': '# stats\n',
  'stats.txt': 'median: middle\n',
  '.agent/config.json': `${JSON.stringify({ environment: { agentSetup: false } })}\n`,
};

after(async () => {
  await removeStateDir();
  await teardownEnv();
});

test('no package.json: the fallback `npm test --silent` (exit 254, silent) stops the run before any model request', async () => {
  const origin = await makeOrigin(FILES);
  try {
    const run = await runOnFreshClone({ origin, issue: ISSUE, session: SESSION });
    assert.equal(run.cli.code, 1, run.cli.stderr);
    assert.equal(run.result?.code, 'ENVIRONMENT_FAILED', run.cli.stderr);
    // The result says how the run ended; the in-process worker does not say it again (the SDK's warning, with a stack).
    assert.doesNotMatch(run.cli.stderr, /Workflow failed/);
    const reason = run.result?.reason ?? '';
    assert.match(reason, /`npm test --silent`/);
    assert.match(reason, /exit 254/);
    assert.match(reason, /commands\.test/);
    assert.equal(run.modelRequests, 0);
  } finally {
    await origin.cleanup();
  }
});

test('`make test` whose recipe calls a missing `uv`: make exits 2 with "Error 127", no model request', async () => {
  const origin = await makeOrigin({ ...FILES, Makefile: 'test:\n\tuv run --frozen pytest -q\n' });
  try {
    const run = await runOnFreshClone({
      origin,
      issue: ISSUE,
      session: SESSION,
      // However the worker's machine is set up, `uv` is not on the sandbox's PATH here.
      env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    });
    assert.equal(run.result?.code, 'ENVIRONMENT_FAILED', run.cli.stderr);
    const reason = run.result?.reason ?? '';
    assert.match(reason, /`make -k test`/);
    assert.match(reason, /Error 127/);
    assert.match(reason, /install `uv`/);
    assert.equal(run.modelRequests, 0);
  } finally {
    await origin.cleanup();
  }
});
