/**
 * An upstream-style agent directory runs unchanged in either vocabulary: the intents
 * fixture is written in the upstream names (validationSteps, validationConditions,
 * onFailure, detect:graph); here the same agent, rewritten in the seed names
 * (completionSteps, completionConditions, onFail, stepMachine), runs the same way.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionRule } from '../../src/dev/model-server/session-script.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents', 'intents');

async function seedVocabularyCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'seed-vocabulary-'));
  await cp(FIXTURE, dir, { recursive: true });
  const agent = JSON.parse(await readFile(join(dir, 'agent.json'), 'utf8')) as {
    runner: { verdict: { type: string } };
  };
  agent.runner.verdict.type = 'stepMachine';
  await writeFile(join(dir, 'agent.json'), JSON.stringify(agent, null, 2));
  const registry = JSON.parse(await readFile(join(dir, 'steps_registry.json'), 'utf8')) as Record<string, unknown>;
  const upstream = registry['validationSteps'] as Record<
    string,
    { validationConditions: unknown; onFailure: { maxAttempts: number } }
  >;
  registry['completionSteps'] = Object.fromEntries(
    Object.entries(upstream).map(([id, { validationConditions, onFailure, ...rest }]) => [
      id,
      {
        ...rest,
        completionConditions: validationConditions,
        onFail: { retry: true, maxAttempts: onFailure.maxAttempts },
      },
    ]),
  );
  delete registry['validationSteps'];
  await writeFile(join(dir, 'steps_registry.json'), JSON.stringify(registry, null, 2));
  return dir;
}

const answer = (id: string, step: string, action: string): SessionRule =>
  ({
    id,
    when: { promptContains: `Step ${step}` },
    respond: { json: { stepId: step, summary: id, next_action: { action }, analysis: { note: 'n' } } },
  }) as SessionRule;

test('a seed-vocabulary agent directory loads and runs with the offline model server', async () => {
  const agentDir = await seedVocabularyCopy();
  const session = {
    name: 'seed vocabulary',
    rules: [
      answer('plan', 'initial.plan', 'next'),
      answer('build', 'continuation.build', 'handoff'),
      answer('close', 'closure.done', 'closing'),
    ],
  };
  const { result } = await runScenario({ session, agentDir });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => s.stepId),
    ['initial.plan', 'continuation.build', 'closure.done'],
  );
  assert.equal(result.boundary?.status, 'success');
});
