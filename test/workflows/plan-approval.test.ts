/**
 * Plan approval (issue 40), end to end on the dev server with real runs of the default
 * playbook and a scripted model: with `planApproval: always`, the entry step (the plan)
 * runs read-only, so its attempt to write a file fails and nothing in the worktree changes;
 * the plan is posted on the issue and the run waits; a reply with changes makes the plan
 * again with the reply quoted; `/approve` moves the run on, and it delivers the fix.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { execa } from 'execa';
import { localIssuePath } from '../../src/activities/issues/local-issue-store.js';
import { answerUpdate, progressQuery } from '../../src/workflows/run/messages.js';
import { CHANGE, planSession } from './plan-session.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';
import { defaultWorktreeOf } from '../helpers/worktree-path.js';

after(teardownEnv);

test(
  'planApproval always: a read-only plan, a change request, /approve, then the fix',
  { timeout: 300_000 },
  async () => {
    const { result, model, repoPath } = await runScenario({
      session: planSession(),
      input: { planApproval: 'always', delivery: 'merge' },
      during: async (handle, model, run) => {
        const waitingForPlan = (times: number) => async () => {
          const p = await handle.query(progressQuery).catch(() => undefined);
          const issue = await readFile(localIssuePath(run.repoPath, run.issue), 'utf8');
          const posted = issue.split('The plan, for your approval').length - 1;
          return p?.waiting?.kind === 'plan' && posted >= times ? { p, issue } : undefined;
        };
        const first = await until('the plan posted', waitingForPlan(1), 120_000, 100);
        assert.match(first.issue, /Files it names: `src\/sum\.js`/);
        assert.match(first.issue, /plan approval is always required/);
        const worktree = await defaultWorktreeOf(run.repoPath, run.issue);
        assert.ok(existsSync(worktree), worktree);
        const planted = await execa('grep', ['-rl', 'planted', worktree], { reject: false });
        assert.equal(planted.exitCode, 1, `the plan step could not write: ${planted.stdout}${planted.stderr}`);
        assert.equal(model.stats().byRule['reproduce'] ?? 0, 0, 'nothing ran past the plan');

        await handle.executeUpdate(answerUpdate, { args: [{ author: 'ann', text: CHANGE }] });
        await until('the plan made again and posted', waitingForPlan(2), 120_000, 100);
        assert.equal(model.stats().byRule['plan-again'], 1, 'the change request reached the plan step');
        assert.equal(model.stats().byRule['reproduce'] ?? 0, 0, 'still nothing past the plan');
        await handle.executeUpdate(answerUpdate, { args: [{ author: 'ann', text: 'Looks right.\n/approve' }] });
      },
    });
    assert.equal(result.outcome, 'success', result.reason);
    assert.equal(model.stats().byRule['reproduce'], 1);
    const sum = await readFile(`${repoPath}/src/sum.js`, 'utf8');
    assert.match(sum, /return a \+ b;/, 'the fix was delivered (merge)');
    assert.doesNotMatch(sum, /planted/);
  },
);
