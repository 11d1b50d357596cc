/**
 * Red CI on the run's pull request brings it back (issue 40), end to end on the dev server
 * with the watcher, real runs of the default playbook, real git with a bare `origin` and
 * the GitHub REST stand-in (check runs and Actions jobs included):
 *
 * - after delivery, a check that fails is run again first; a flaky one (passes on the
 *   re-run) is never worked;
 * - one that fails again continues the issue on the same branch: one new commit on the
 *   same PR, the continuation's first step sees the check's name and its log excerpt,
 *   and the PR gets one reply;
 * - a failure on the new head is past the cap (1 round): a reply says so and no third
 *   run starts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import type { Client } from '@temporalio/client';
import { githubWatchScenario, watcherCaughtUp } from './github-watch-scenario.js';
import { twoRunsSession } from './two-runs-session.js';
import { until as untilAt } from '../../helpers/until.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';

after(teardownEnv);

const TOKEN = ['ghp', 'watchcired0123456789abcd'].join('_');
const FAILURE_LINE = 'AssertionError: sum.doc is missing the word "integers"';

async function executions(client: Client, workflowId: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) out.push(e.status.name);
  return out;
}

/** A GitHub Actions log: timestamps, colour codes, a long set-up, then the failure. */
function actionsLog(): string {
  const at = '2026-11-27T05:00:00.0000000Z ';
  const setup = Array.from({ length: 400 }, (_, i) => `${at}npm http fetch GET 200 https://registry/pkg-${i} 12ms`);
  return [...setup, `${at}\u001b[31mnot ok 2 - sum doc\u001b[0m`, `${at}  ${FAILURE_LINE}`, `${at}# fail 1`].join('\n');
}

test(
  'red CI on the delivered PR: re-run first, then one continuation, then the cap',
  { timeout: 600_000 },
  async () => {
    const env = await testEnv();
    const s = await githubWatchScenario({
      name: 'watch-ci',
      token: TOKEN,
      session: twoRunsSession({ new: '/** Adds two integers. */' }, [
        'failed a CI check',
        '**unit tests**',
        FAILURE_LINE,
      ]),
    });
    const { server, model, worker, remote, runId } = s;
    const remoteHead = async (): Promise<string> =>
      String((await execa('git', ['--git-dir', remote, 'rev-parse', 'refs/heads/agent/issue-1'])).stdout).trim();
    const ended = (n: number) => async () => {
      const e = await executions(env.client, runId);
      return e.length === n && e.every((s) => s !== 'RUNNING') ? e : undefined;
    };
    try {
      await worker.runUntil(async () => {
        const watcher = await s.startWatcher();
        assert.deepEqual(await until('the first run to end', ended(1)), ['COMPLETED']);
        const pr = server.pulls()[0]!;
        const firstHead = await remoteHead();
        server.setPullHead(pr.number, firstHead);
        const flaky = server.checks.add(firstHead, { name: 'lint', conclusion: 'failure', onRerun: 'success' });
        const red = server.checks.add(firstHead, { name: 'unit tests', conclusion: 'failure', log: actionsLog() });

        assert.deepEqual(await until('the continuation to end', ended(2)), ['COMPLETED', 'COMPLETED']);
        assert.deepEqual(
          server.checks.reruns.sort(),
          [flaky.id, red.id].sort(),
          'each failed check was run again once',
        );
        const secondHead = await remoteHead();
        assert.notEqual(secondHead, firstHead, 'a new commit on the same branch');
        const log = String((await execa('git', ['--git-dir', remote, 'log', '--format=%H', 'agent/issue-1'])).stdout);
        assert.ok(log.includes(firstHead), 'built on the delivered commit');
        assert.equal(server.counters.prsCreated, 1, 'the same PR');
        assert.equal(model.stats().byRule['2-understand'], 1, "the continuation's prompt named the check and its log");
        const working = pr.comments.filter((c) => c.body.includes('is working on it'));
        assert.equal(working.length, 1, pr.comments.map((c) => c.body.slice(0, 80)).join('\n'));
        assert.match(working[0]!.body, /CI check `unit tests` failed .* \(round 1 of 1\)/);
        assert.equal(
          pr.comments.filter((c) => c.body.includes('`lint`')).length,
          0,
          'the flaky check passed on its re-run: not worked, not mentioned',
        );

        server.setPullHead(pr.number, secondHead);
        server.checks.add(secondHead, { name: 'unit tests', conclusion: 'failure', log: actionsLog() });
        await until('the cap reply', () => pr.comments.find((c) => c.body.includes('cap of 1 round')));
        await watcherCaughtUp(watcher);
        assert.equal((await executions(env.client, runId)).length, 2, 'no third run past the cap');
        await watcher.signal('stop');
        await watcher.result();
      });
    } finally {
      await s.close();
    }
  },
);

function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return untilAt(what, probe, 240_000);
}
