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

// One eval process over every shipped task (each task is a whole run): its JSON on stdout
// and its table on stderr are both checked, so no task runs twice.
test(
  'eval over the shipped tasks, offline: four solved, js-clamp delivered but failing its hidden checks; JSON and table',
  { timeout: 300_000 },
  async () => {
    const { stdout, stderr } = await evalCli(['--offline', '--concurrency', '3', '--json']);
    const report = JSON.parse(stdout) as { tasks: EvalRow[]; totals: EvalTotals };
    const sum = report.tasks.find((t) => t.task === 'js-sum');
    const clamp = report.tasks.find((t) => t.task === 'js-clamp');
    assert.ok(sum && clamp, JSON.stringify(report.tasks.map((t) => t.task)));
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
    assert.equal(clamp.outcome, 'success', 'the agent believed it was done');
    assert.equal(clamp.solved, false);
    assert.match(clamp.reason, /hidden check failed: node --test test\/hidden.test.js/);
    assert.equal(report.totals.tasks, 5);
    assert.equal(report.totals.solved, 4);
    assert.equal(
      report.totals.tokens,
      report.tasks.reduce((n, t) => n + t.tokens, 0),
    );

    assert.match(stderr, /task +mode +delivered +solved +outcome +iterations +tokens +cost +wall +reason/);
    for (const id of ['js-sum', 'js-slugify', 'py-median', 'go-maxint'])
      assert.match(stderr, new RegExp(`^${id} +recorded +yes +yes +success`, 'm'), `${id} is solved`);
    assert.match(stderr, /^js-clamp +recorded +yes +no +success/m);
    assert.match(stderr, /solved 4\/5 · \d+ iterations · \d+ tokens · \$\d+\.\d{4} · [\d.]+s wall/);
  },
);

test('eval --only with a name no task has is refused before anything runs, naming the tasks', async () => {
  const err = await evalCli(['--offline', '--only', 'js-sum,js-nope']).then(
    () => assert.fail('eval ran'),
    (e: { code?: number; stderr?: string }) => e,
  );
  assert.equal(err.code, 2);
  assert.match(
    err.stderr ?? '',
    /--only names no task "js-nope"; tasks: js-sum, js-clamp, js-slugify, py-median, go-maxint/,
  );
});
