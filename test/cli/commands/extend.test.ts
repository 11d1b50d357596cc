/**
 * `issue-agent extend` on a run paused by its budget, against the real dev server: the
 * pause is posted on the local issue once (what was spent, on what, how to extend), status
 * says what it waits for and the command, `extend --tokens N` adds N to the limit and the
 * run goes on to success; `extend` on a run that is not paused is RUN_NOT_WAITING.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import { AgentError } from '../../../src/contracts/errors.js';
import { localIssuePath } from '../../../src/activities/issues/local-issue-store.js';
import { extendCommand } from '../../../src/cli/commands/extend-reply.js';
import { statusCommand } from '../../../src/cli/commands/run-control.js';
import { progressQuery } from '../../../src/workflows/run/messages.js';
import { runScenario } from '../../helpers/run-scenario.js';
import { captured, findableId } from '../../helpers/in-process-cli.js';
import { serverAddress, teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { until } from '../../helpers/until.js';

before(async () => {
  process.env.TEMPORAL_ADDRESS = serverAddress(await testEnv());
  delete process.env.TEMPORAL_NAMESPACE;
});
after(teardownEnv);

test(
  'a budget pause is posted on the issue, shown in status, and `extend` lets the run go on',
  { timeout: 240_000 },
  async () => {
    let statusOut = '';
    let issueText = '';
    let extendOut = '';
    const { result, repoPath } = await runScenario({
      session: join(DEMO_DIR, 'session.json'),
      input: { budget: { maxTokens: 3000 } },
      workflowId: findableId,
      during: async (handle, _model, run) => {
        const flags = ['--issue', String(run.issue), '--repo', run.repoPath];
        await until(
          'the run to pause on its budget',
          async () => {
            const p = await handle.query(progressQuery).catch(() => undefined);
            if (p?.phase === 'completed' || p?.phase === 'failed') assert.fail(`the run never paused (${p.phase})`);
            return p?.phase === 'budget-exhausted' && p.waiting?.kind === 'budget' ? true : undefined;
          },
          240_000,
          100,
        );
        // The notice is posted by an activity after the pause starts: wait for it (about 10 s;
        // without it the assertions below say what is missing, and the run is not left paused).
        issueText = await until(
          'the budget notice on the issue',
          async () => {
            issueText = await readFile(localIssuePath(run.repoPath, run.issue), 'utf8');
            return issueText.includes('budget') ? issueText : undefined;
          },
          10_000,
          100,
        ).catch(() => issueText);
        statusOut = (await captured(() => statusCommand(flags))).out;
        // Paused on its token limit: more dollars would not help, and it says so.
        await assert.rejects(extendCommand([...flags, '--usd', '1']), /paused on its token limit.*add --tokens N/);
        const extended = await captured(() => extendCommand([...flags, '--tokens', '200000']));
        assert.equal(extended.code, 0);
        extendOut = extended.out;
      },
    });
    assert.match(statusOut, /waiting: budget exhausted \(.+\); run issue-agent extend --issue 1 --usd 5/);
    assert.match(issueText, /Paused: the budget of this run is spent/);
    assert.match(issueText, /issue-agent extend --issue 1 --usd 5/);
    assert.match(issueText, /`initial\.understand`: \$/, 'the notice says what the budget was spent on');
    assert.match(extendOut, /limit now 203000 tokens/);
    const after = await readFile(localIssuePath(repoPath, 1), 'utf8');
    assert.equal(after.split('Paused: the budget').length - 1, 1, 'the notice is posted once');
    assert.equal(result.outcome, 'success', result.reason);
    assert.equal(result.outcome, 'success', result.reason);

    // The run is over: nothing to extend.
    await assert.rejects(
      extendCommand(['--issue', '1', '--repo', repoPath, '--usd', '1']),
      (err: unknown) => AgentError.isInstance(err) && err.code === 'RUN_NOT_WAITING',
    );
  },
);
