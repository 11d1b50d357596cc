/**
 * Stage 3 tells the model why, for an agent unlike the budget one of verdict-retry.test:
 * a triager-like agent (one ungated closure step, no `repeat` transition, no retry
 * template) under upstream `detect:keyword`, copied into a temp dir. Its first closing
 * lacks the keyword: the verdict rejects it, the same closure step runs again, and that
 * request carries the verdict's reason (the built-in fallback text). Real run against the
 * offline model server: the second answer's rule matches only a prompt with the reason.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionRule } from '../../../src/dev/model-server/session-script.js';
import { runScenario } from '../../helpers/run-scenario.js';
import { teardownEnv } from '../../helpers/temporal-env.js';

after(teardownEnv);

const UNGATED = fileURLToPath(new URL('../../fixtures/agents/ungated-closure/', import.meta.url));
const KEYWORD = 'TRIAGED-ALL';
const REASON = `The keyword ${KEYWORD} has not appeared in iteration 1.`;

const answer = (id: string, when: string[], summary: string, times?: number): SessionRule =>
  ({
    id,
    when: { promptContains: when },
    ...(times === undefined ? {} : { times }),
    respond: { json: { stepId: 'triage', summary, next_action: { action: 'closing' } } },
  }) as SessionRule;

test('a triager-like keyword agent: after its closing is rejected, the rerun closure request says why', async () => {
  const agentDir = await mkdtemp(join(tmpdir(), 'keyword-agent-'));
  await cp(UNGATED, agentDir, { recursive: true });
  const file = join(agentDir, 'agent.json');
  const agent = JSON.parse(await readFile(file, 'utf8')) as { runner: Record<string, unknown> };
  agent.runner['verdict'] = { type: 'detect:keyword', config: { verdictKeyword: KEYWORD, maxIterations: 4 } };
  await writeFile(file, JSON.stringify(agent, null, 2));
  const registryFile = join(agentDir, 'steps_registry.json');
  const registry = JSON.parse(await readFile(registryFile, 'utf8')) as Record<string, unknown>;
  registry['entryStepMapping'] = { 'detect:keyword': 'triage' };
  await writeFile(registryFile, JSON.stringify(registry, null, 2));

  const toldWhy = answer('told-why', ['Step triage', REASON], `triaged the rest: ${KEYWORD}`);
  const first = answer('first', ['Step triage'], 'triaged 1 issue', 1);
  const { result, model } = await runScenario({ session: { name: 'keyword-why', rules: [toldWhy, first] }, agentDir });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => `${s.iteration}:${s.stepId}:${s.intent ?? ''}`),
    ['1:triage:closing', '2:triage:closing'],
  );
  assert.equal(model.stats().byRule['first'], 1, 'the first request carried no reason');
  assert.equal(model.stats().byRule['told-why'], 1, JSON.stringify(model.stats().log));
});
