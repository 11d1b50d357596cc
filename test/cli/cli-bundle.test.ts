/**
 * The suite's CLI bundle (test/helpers/cli-bundle-cache.ts), which the CLI tests spawn
 * instead of `tsx src/client.ts` under the suite runner, answers as the sources do: the
 * same help, and the paths found relative to a module (the project root with the default
 * agent, the workflow sources) are the sources' own, not the bundle's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { cachedCliBundle, cliEntry } from '../helpers/cli-bundle-cache.js';
import { workerCommand } from '../helpers/worker-process.js';
import { cliCommand, cliEnv, DEAD_ADDRESS } from './cli-process.js';

/** Exit code and output of node with `command` then `args` (a failing command resolves too). */
const run = async (command: readonly string[], args: readonly string[]) =>
  promisify(execFile)(process.execPath, [...command, ...args], {
    cwd: PROJECT_ROOT,
    env: cliEnv({ TEMPORAL_ADDRESS: DEAD_ADDRESS }),
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );

test('the CLI bundle prints the same help as the sources and finds the default agent next to src/', async () => {
  const dir = await cachedCliBundle();
  assert.ok(dir !== undefined, 'the bundle is built and kept under node_modules/.cache');
  const bundled = [cliEntry(dir)];
  assert.deepEqual(cliCommand({ ISSUE_AGENT_TEST_CLI_BUNDLE: dir }), bundled, 'the CLI tests spawn it when given');
  assert.deepEqual(cliCommand({}), ['--import', 'tsx', 'src/client.ts'], 'without it, the sources under tsx');
  assert.deepEqual(workerCommand({ ISSUE_AGENT_TEST_CLI_BUNDLE: dir }), [`${dir}/worker.mjs`], 'worker processes too');
  assert.deepEqual(workerCommand({}), ['--import', 'tsx', 'src/worker.ts']);
  const sources = ['--import', 'tsx', 'src/client.ts'];
  for (const args of [['--help'], ['start-run', '--issue', 'abc'], ['status', '--bogus']]) {
    assert.deepEqual(await run(bundled, args), await run(sources, args), `issue-agent ${args.join(' ')}`);
  }
  // The default agent is found at the project root (PROJECT_ROOT, from import.meta.url, would
  // be the bundle's directory without the rewrite): both read the same one.
  assert.deepEqual(await run(bundled, ['validate']), await run(sources, ['validate']), 'issue-agent validate');
});
