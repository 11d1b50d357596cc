/**
 * `npm run demo` as a process: the README's first command. It runs against the test
 * server (TEMPORAL_ADDRESS) so that the suite never leaves a dev server behind. After
 * it exits, its run is still readable (Current Details answered by the demo's reader)
 * and carries RepoId like a start-run run.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';

after(teardownEnv);

test('the demo completes end to end with no keys and exits 0', { timeout: 300_000 }, async (t) => {
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

  const reader = Number(/its reader \(pid (\d+)\)/.exec(stdout)?.[1]);
  assert.ok(reader > 0, `the demo names its reader:\n${stdout}`);
  t.after(() => {
    try {
      process.kill(reader, 'SIGTERM');
    } catch {
      // already gone
    }
  });
  const workflowId = /^run (\S+)$/m.exec(stdout)?.[1];
  assert.ok(workflowId, `the demo names its run:\n${stdout}`);
  const handle = env.client.workflow.getHandle(workflowId);

  // The demo's worker is gone with the demo: what the Web UI's Current Details asks for
  // (the metadata query) is answered by the reader.
  const metadata = (await readable(() => handle.query('__temporal_workflow_metadata'))) as {
    currentDetails?: string;
  };
  assert.match(metadata.currentDetails ?? '', /## Issue #1/);
  assert.match(metadata.currentDetails ?? '', /\*\*Phase:\*\* completed/);

  const description = await handle.describe();
  const attrs = description.searchAttributes as Record<string, unknown[] | undefined>;
  assert.match(String(attrs['RepoId']?.[0]), /^issue-agent-demo-[a-z0-9]+-[0-9a-f]{8}$/, 'RepoId like a start-run run');
  assert.deepEqual(attrs['IssueNumber'], [1]);
});

/** Retries a query until a worker answers it (the reader bundles the workflows first). */
async function readable<T>(query: () => Promise<T>): Promise<T> {
  let last: unknown;
  return until(
    () => `a worker to answer the query (last error: ${String(last)})`,
    () =>
      query().catch((err: unknown) => {
        last = err;
        return undefined;
      }),
    120_000,
    1000,
  );
}
