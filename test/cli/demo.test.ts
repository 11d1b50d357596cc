/**
 * `npm run demo` as a process: the README's first command. It runs against the test
 * server (TEMPORAL_ADDRESS) so that the suite never leaves a dev server behind.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

test('the demo completes end to end with no keys and exits 0', { timeout: 240_000 }, async () => {
  const env = await testEnv();
  const { ANTHROPIC_API_KEY: _key, GITHUB_TOKEN: _token, ...rest } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/dev/demo.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...rest, TEMPORAL_ADDRESS: serverAddress(env), NODE_TEST_CONTEXT: '' },
    timeout: 200_000,
  });
  assert.match(stdout, /outcome: success/);
  assert.match(stdout, /merge: done/);
  assert.match(stdout, /issue #1 state: closed/);
  assert.match(stdout, /Fix #1: sum\(\) adds its operands/);
  assert.match(stdout, /Reproduce issue #1/, 'the reproduction is its own commit');
  assert.ok(
    stdout.includes(
      'steps: initial.understand → continuation.reproduce → continuation.implement → verification.review (escalate) → continuation.implement → verification.review → closure.issue',
    ),
    'the demo follows the playbook, with one review escalation',
  );
  assert.match(stdout, /Web UI: http:\/\/\S+\/workflows\//);
});
