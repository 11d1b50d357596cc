/**
 * stepId normalisation comes before any schema check (seed 004): a schema that pins
 * `stepId` with `const` (as upstream's do) and a model answer naming another step must
 * not fail the step; the runtime corrects the stepId and the run goes on.
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

const answer = (id: string, stepId: string, when: string, json: Record<string, unknown>): SessionRule =>
  ({ id, when: { promptContains: when }, respond: { json: { stepId, summary: id, ...json } } }) as SessionRule;

test('a wrong stepId under a const schema is corrected and the run goes on', async () => {
  const agentDir = await mkdtemp(join(tmpdir(), 'agent-'));
  await cp(FIXTURE, agentDir, { recursive: true });
  const path = join(agentDir, 'schemas', 'flow.schema.json');
  const schema = JSON.parse(await readFile(path, 'utf8')) as Record<string, { properties: Record<string, unknown> }>;
  for (const id of ['initial.plan', 'continuation.build', 'closure.done']) {
    schema[id]!.properties['stepId'] = { type: 'string', const: id };
  }
  await writeFile(path, JSON.stringify(schema, null, 2));
  const rules = [
    answer('plan', 'plan-step', 'Step initial.plan', { next_action: { action: 'next' }, analysis: { note: 'n' } }),
    answer('build', 'initial.plan', 'Step continuation.build', { next_action: { action: 'handoff' } }),
    answer('close', 'closure', 'Step closure.done', { next_action: { action: 'closing' } }),
  ];
  const { result } = await runScenario({ session: { name: 'step-id', rules }, agentDir });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => s.stepId),
    ['initial.plan', 'continuation.build', 'closure.done'],
  );
});
