/**
 * A fleet that survives losing a machine (host-lost-scenario.ts): a run on a `file://`
 * remote whose worker is SIGKILLed for good mid-step moves to the other worker at the
 * last completed step's checkpoint (pushed to the remote's refs/issue-agent/…), keeps
 * its StepContext, and is delivered exactly once: one branch pushed, the checkpoint
 * refs gone afterwards.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { git } from '../../../src/activities/workspace/git/git.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { remoteRefs } from './remote-fixture.js';
import { runHostLostScenario } from './host-lost-scenario.js';

after(teardownEnv);

test(
  'a run on a file:// remote whose worker is killed for good is finished by another worker, delivered once',
  { timeout: 300_000 },
  async () => {
    const { result, barePath, hosts, pushedBeforeKill, byRule } = await runHostLostScenario(await testEnv());
    assert.ok(pushedBeforeKill.size >= 1, 'the completed steps pushed their checkpoints to the remote');
    assert.equal(result.outcome, 'success', result.reason);
    assert.ok(
      (result.warnings ?? []).some((w) => /moved to .*host-b/.test(w)),
      `the run says it moved: ${JSON.stringify(result.warnings)}`,
    );
    assert.ok(result.worktreePath?.startsWith(hosts[1]!.stateDir), `worked on host-b: ${result.worktreePath}`);
    assert.equal(byRule['understand-answer'], 1, 'completed step 1 was not asked again');
    assert.equal(byRule['reproduce-answer'], 1, 'completed step 2 was not asked again');
    assert.equal(
      result.handoff['continuation.reproduce']?.['command'],
      'node --test test/sum.test.js',
      'StepContext survived the move',
    );
    // Delivered exactly once: one branch on the remote, holding the fix; no checkpoint ref left.
    const heads = await remoteRefs(barePath, 'refs/heads/');
    assert.deepEqual([...heads.keys()].sort(), ['refs/heads/agent/issue-1', 'refs/heads/main']);
    const push = result.boundary?.effects.find((e) => e.name === 'push');
    assert.equal(push?.status, 'done', JSON.stringify(result.boundary));
    const fixed = await git(barePath, ['show', 'agent/issue-1:src/sum.js']);
    assert.equal(fixed.exitCode, 0, fixed.stderr);
    assert.match(fixed.stdout, /a \+ b/);
    assert.equal((await remoteRefs(barePath, 'refs/issue-agent/')).size, 0, 'checkpoint refs deleted after delivery');
  },
);
