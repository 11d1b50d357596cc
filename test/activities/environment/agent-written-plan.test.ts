/**
 * An agent-written setup is planned as configured setup is, but says whose it is: the
 * report does not send the user to a `.agent/config.json` that lacks the commands, and a
 * failing step names its command rather than a config pointer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asAgentWritten } from '../../../src/activities/environment/agent-written-plan.js';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { planConfigured } from '../../../src/activities/environment/detect-setup.js';
import { setupFailure } from '../../../src/activities/environment/setup-failure.js';
import { tempDir } from '../model/step-fixtures.js';
import { exited } from '../../helpers/command-outcome.js';

test('the same steps and commands, labelled as written by the agent', async () => {
  const dir = tempDir('agent-plan-');
  const configured = await planConfigured(dir, ['sh tools/bootstrap.sh', 'make deps'], cacheLayout(dir, {}));
  const written = asAgentWritten(configured);
  assert.deepEqual(
    written.steps.map((s) => s.command),
    configured.steps.map((s) => s.command),
  );
  assert.deepEqual(
    written.steps.map((s) => s.id),
    ['agent-setup-0', 'agent-setup-1'],
  );
  assert.equal(written.steps[1]?.reason, 'agent-written setup[1]: make deps');
  assert.match(written.detected.join('\n'), /2 command\(s\) written by the agent/);
  assert.doesNotMatch(JSON.stringify(written), /\.agent\/config\.json/);
  const step = written.steps[0];
  assert.ok(step);
  const error = setupFailure({
    step,
    result: exited(2, 'no such file'),
    timeoutMs: 1000,
    worktreePath: dir,
  });
  assert.equal(error.where, 'sh tools/bootstrap.sh');
  assert.match(error.message, /\(agent-written setup\[0\]: sh tools\/bootstrap\.sh\)/);
});
