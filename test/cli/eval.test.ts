/**
 * `issue-agent eval --offline` as a process against the test server: the shipped tasks
 * are created as git repositories in temp dirs, each run plays its recorded playbook
 * session, the hidden checks decide "solved". js-clamp's session misses a criterion of
 * its issue, so it is delivered but not solved.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import type { EvalRow } from '../../src/dev/eval/run-eval.js';
import type { EvalTotals } from '../../src/dev/eval/eval-table.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { cliCommand } from './cli-process.js';

after(teardownEnv);

async function evalCli(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  const env = await testEnv();
  const { ANTHROPIC_API_KEY: _key, ANTHROPIC_BASE_URL: _url, GITHUB_TOKEN: _token, ...rest } = process.env;
  return promisify(execFile)(process.execPath, [...cliCommand(), 'eval', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...rest, TEMPORAL_ADDRESS: serverAddress(env), NODE_TEST_CONTEXT: '' },
    timeout: 280_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

test(
  'eval over two offline tasks: one solved, one delivered but failing its hidden checks',
  { timeout: 300_000 },
  async () => {
    const { stdout } = await evalCli(['--offline', '--only', 'js-sum,js-clamp', '--json']);
    const report = JSON.parse(stdout) as { tasks: EvalRow[]; totals: EvalTotals };
    const [sum, clamp] = report.tasks;
    assert.equal(sum?.task, 'js-sum');
    assert.equal(sum.solved, true, sum.reason);
    assert.equal(sum.outcome, 'success');
    assert.equal(sum.delivered, true);
    assert.equal(sum.deliveredRef, 'main');
    assert.equal(sum.mode, 'recorded');
    assert.equal(sum.invalid, false);
    assert.ok(sum.iterations >= 5 && sum.tokens > 0 && sum.wallMs > 0, JSON.stringify(sum));
    assert.deepEqual(
      sum.checks.map((c) => c.exitCode),
      [0, 0],
    );
    assert.equal(clamp?.task, 'js-clamp');
    assert.equal(clamp.outcome, 'success', 'the agent believed it was done');
    assert.equal(clamp.solved, false);
    assert.match(clamp.reason, /hidden check failed: node --test test\/hidden.test.js/);
    assert.equal(report.totals.tasks, 2);
    assert.equal(report.totals.solved, 1);
    assert.equal(report.totals.tokens, sum.tokens + clamp.tokens);
  },
);

test('eval prints a table with every shipped task and the totals', { timeout: 300_000 }, async () => {
  const { stdout } = await evalCli(['--offline', '--concurrency', '3']);
  process.stdout.write(stdout);
  assert.match(stdout, /task +mode +delivered +solved +outcome +iterations +tokens +cost +wall +reason/);
  for (const id of ['js-sum', 'js-slugify', 'py-median', 'go-maxint'])
    assert.match(stdout, new RegExp(`^${id} +recorded +yes +yes +success`, 'm'), `${id} is solved`);
  assert.match(stdout, /^js-clamp +recorded +yes +no +success/m);
  assert.match(stdout, /solved 4\/5 · \d+ iterations · \d+ tokens · \$\d+\.\d{4} · [\d.]+s wall/);
});
