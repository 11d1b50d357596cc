/**
 * The watcher end to end on the real Temporal dev server, real runs of the default
 * playbook (offline model server playing a scripted session), real git with a bare
 * `origin`, and the project's GitHub REST stand-in behind the real Octokit client:
 *
 * - a labelled issue gets exactly one run, its label swapped to `agent:working` while it
 *   runs, one progress comment (one POST) edited at every step change (PATCHes), and one PR;
 * - the watcher terminated and started again while the run is live (and the label put
 *   back) adopts the run instead of starting a second one;
 * - a stranger's mention on the PR starts nothing; an allowed `@issue-agent` comment on
 *   the PR continues the issue: a second run on the same branch pushes a new commit to
 *   the same PR (no second PR), its first step sees the comment's words, and the comment
 *   gets a reply with the outcome.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import type { Client } from '@temporalio/client';
import { runWatchWorkflow } from '../../../src/workflows/watch/run-watch.js';
import { twoRunsSession } from './two-runs-session.js';
import { githubWatchScenario } from './github-watch-scenario.js';
import { until as untilAt } from '../../helpers/until.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';

after(teardownEnv);

const TOKEN = ['ghp', 'watchendtoend0123456789'].join('_');

async function executions(client: Client, workflowId: string): Promise<Array<{ runId: string; status: string }>> {
  const out: Array<{ runId: string; status: string }> = [];
  for await (const e of client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    out.push({ runId: e.runId, status: e.status.name });
  return out;
}

test(
  'label → one run, one edited progress comment, one PR; restart adopts; a PR comment continues it',
  { timeout: 600_000 },
  async () => {
    const env = await testEnv();
    const scenario = await githubWatchScenario({
      name: 'watch-test',
      token: TOKEN,
      session: twoRunsSession({ new: '/** Adds two numbers (as the review asked). */' }, [
        'Step initial.understand',
        'please also update the doc comment',
      ]),
      input: { concurrency: 2, uiWorkflowsUrl: 'http://127.0.0.1:8233/namespaces/default/workflows/' },
    });
    const { server, worker, remote, input, taskQueue, runId, issue } = scenario;
    const remoteHead = async (branch: string): Promise<string> =>
      String(
        (
          await execa('git', ['--git-dir', remote, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], {
            reject: false,
          })
        ).stdout,
      ).trim();
    const watcherId = `${input.repoId}/watch`;
    const startWatcher = () =>
      env.client.workflow.start(runWatchWorkflow, {
        taskQueue,
        workflowId: watcherId,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    try {
      await worker.runUntil(async () => {
        const watcher = await startWatcher();
        const again = await startWatcher();
        assert.equal(again.firstExecutionRunId, watcher.firstExecutionRunId, 'starting twice finds the live watcher');

        // Picked up: the label is swapped and the run is live. The swap is two calls (add
        // `agent:working`, then remove `agent`): wait for both, then check the pair.
        await until('the pickup', () =>
          issue().labels.includes('agent:working') && !issue().labels.includes('agent') ? true : undefined,
        );
        assert.ok(
          issue().labels.includes('agent:working') && !issue().labels.includes('agent'),
          issue().labels.join(','),
        );

        // The watcher killed and started again, with the label put back: the live run is adopted.
        await watcher.terminate('test: the watcher dies');
        issue().labels.push('agent');
        const second = await startWatcher();
        assert.notEqual(second.firstExecutionRunId, watcher.firstExecutionRunId);

        const done = await until('the first run to end', async () => {
          const e = await executions(env.client, runId);
          return e.length > 0 && e.every((x) => x.status !== 'RUNNING') ? e : undefined;
        });
        assert.equal(done.length, 1, `one run of the issue: ${JSON.stringify(done)}`);
        assert.equal(done[0]!.status, 'COMPLETED');
        assert.equal(server.counters.prsCreated, 1);
        const pr = server.pulls()[0]!;
        assert.equal(pr.head, 'agent/issue-1');
        const firstHead = await remoteHead('agent/issue-1');
        assert.ok(firstHead !== '', 'the branch was pushed');

        // One progress comment: created once, edited at every step change and at the end.
        const progress = issue().comments.filter((c) => c.body.includes('issue-agent:progress'));
        assert.equal(
          progress.length,
          1,
          issue()
            .comments.map((c) => c.body.slice(0, 60))
            .join('\n'),
        );
        const progressId = progress[0]!.id;
        const patches = server.log.filter((l) =>
          l.startsWith(`PATCH /repos/acme/widgets/issues/comments/${progressId}`),
        );
        assert.ok(patches.length >= 5, `edited at each of the five steps and the end: ${patches.length}`);
        assert.match(progress[0]!.body, /Outcome: success/);
        assert.match(progress[0]!.body, /pull\/\d+/);
        await until('the working label removed', () => (issue().labels.includes('agent:working') ? undefined : true));

        // A stranger's mention on the PR starts nothing.
        server.addComment(pr.number, { body: '@issue-agent rewrite everything', user: 'mallory', association: 'NONE' });
        await pollsAfterNow(server, 2);
        assert.equal((await executions(env.client, runId)).length, 1, 'no run for a stranger');

        // An allowed mention on the PR continues the issue on the same branch and PR.
        const ask = server.addComment(pr.number, {
          body: '@issue-agent please also update the doc comment',
          user: 'alice',
          association: 'MEMBER',
        });
        await until('the continuation to end', async () => {
          const e = await executions(env.client, runId);
          return e.length === 2 && e.every((x) => x.status !== 'RUNNING') ? e : undefined;
        });
        const secondHead = await remoteHead('agent/issue-1');
        assert.notEqual(secondHead, firstHead, 'a new commit on the same branch');
        const log = await execa('git', ['--git-dir', remote, 'log', '--format=%H', 'agent/issue-1']);
        assert.ok(String(log.stdout).includes(firstHead), 'the new commit builds on the delivered one');
        assert.equal(server.counters.prsCreated, 1, 'the same PR, not a second one');
        const reply = await until('the reply', () =>
          pr.comments.find((c) => c.body.includes('issue-agent:reply') && c.body.includes(`${ask.id}`)),
        );
        assert.match(reply.body, /@alice/);
        assert.match(reply.body, /success/);

        await second.signal('stop');
        await second.result();
        assert.equal(
          (await executions(env.client, runId)).length,
          2,
          'exactly two runs: the first and the continuation',
        );
      });
    } finally {
      await scenario.close();
    }
  },
);

/** Waits until the watcher has read the comments `n` more times: a run it would start is started by then. */
async function pollsAfterNow(server: { readonly log: readonly string[] }, n: number): Promise<void> {
  const reads = (): number => server.log.filter((l) => /^GET \/repos\/[^/]+\/[^/]+\/issues\/comments/.test(l)).length;
  const from = reads();
  await until(`${n} more polls`, () => (reads() >= from + n ? true : undefined));
}

function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return untilAt(what, probe, 240_000);
}
