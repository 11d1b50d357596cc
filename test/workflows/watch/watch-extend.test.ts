/**
 * A budget pause raised from the issue thread (issue 40), end to end on the dev server with
 * the watcher, the GitHub REST stand-in and the demo's scripted model: the run spends its
 * budget (the watcher passes `.agent/config.json`'s budget to the runs it starts), posts
 * the pause on the issue once with `/extend` in it, and waits; a stranger's `/extend` is
 * ignored, a collaborator's `/extend 5` raises the limit by $5 and the run goes on to
 * deliver; the watcher replies to the comment.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import { progressQuery } from '../../../src/workflows/run/messages.js';
import type { runAgentWorkflow } from '../../../src/workflows/run-agent.js';
import { githubWatchScenario, signalsReceived, watcherCaughtUp } from './github-watch-scenario.js';
import { until } from '../../helpers/until.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { readRunResult } from '../../../src/host/run-result.js';

after(teardownEnv);

const TOKEN = ['ghp', 'watchextend0123456789abcd'].join('_');
const LIMIT_USD = 0.0001;

test(
  'a budget pause on a GitHub issue: a stranger’s /extend is ignored, a collaborator’s raises it',
  { timeout: 400_000 },
  async () => {
    const env = await testEnv();
    const s = await githubWatchScenario({
      name: 'watch-extend',
      token: TOKEN,
      session: join(DEMO_DIR, 'session.json'),
      input: { budget: { maxUsd: LIMIT_USD } },
    });
    const { server, worker, runId, issue } = s;
    try {
      await worker.runUntil(async () => {
        const watcher = await s.startWatcher();
        const notice = await until('the budget pause on the issue', () =>
          issue().comments.find((c) => c.body.includes('Paused: the budget of this run is spent')),
        );
        assert.match(notice.body, /comment `\/extend 5` on this issue/);
        const run = env.client.workflow.getHandle<typeof runAgentWorkflow>(runId);
        assert.equal((await run.query(progressQuery)).phase, 'budget-exhausted');

        server.addComment(1, { body: '/extend 500', user: 'mallory', association: 'NONE' });
        await watcherCaughtUp(watcher);
        assert.equal((await run.query(progressQuery)).phase, 'budget-exhausted', 'a stranger does not extend');
        assert.ok(!(await signalsReceived(run)).includes('extendBudget'), "no signal from a stranger's /extend");

        server.addComment(1, { body: 'Fine by me.\n/extend 5', user: 'alice', association: 'COLLABORATOR' });
        const result = await readRunResult(run);
        assert.equal(result.outcome, 'success', result.reason);
        const budget = (await run.query(progressQuery)).budget;
        assert.equal(budget?.maxUsd, LIMIT_USD + 5, 'the limit was raised by $5, once');
        assert.equal(
          issue().comments.filter((c) => c.body.includes('Paused: the budget of this run is spent')).length,
          1,
          'the pause is posted once',
        );
        await until('the reply to the comment', () =>
          issue().comments.find((c) => c.body.includes('budget of the run of #1 raised by $5')),
        );
        await watcher.signal('stop');
        await watcher.result();
      });
    } finally {
      await s.close();
    }
  },
);
