/**
 * The one-activity step's inputs: the activity resolves the step prompt (plus operator
 * guidance) and schema itself; a text prompt is used as is; an unresolvable schema is a
 * schema failure (counted toward schema fail-fast by the workflow). Step inputs resolved
 * once per run: cached by run and input, failures not cached, bounded.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { QueryStepInput } from '../../src/contracts/activities.js';
import { AgentError } from '../../src/contracts/errors.js';
import { FailureType } from '../../src/contracts/failures.js';
import { stepPromptInput, stepSchemaInput, systemPromptInput } from '../../src/contracts/step-inputs.js';
import { loadAgentDefinitionOrThrow } from '../../src/definition/load/load-agent-definition.js';
import { createStepInputCache, toQueryStepRequest } from '../../src/activities/step/step-request.js';

const AGENT = join(import.meta.dirname, '..', 'fixtures', 'agents', 'intents');

async function oneActivityInput(extra: Partial<QueryStepInput> = {}): Promise<QueryStepInput> {
  const definition = await loadAgentDefinitionOrThrow(AGENT);
  const step = definition.steps[definition.entryStep]!;
  const variables = { issue_number: '7', iteration: '1', max_iterations: '5', previous_summary: '' };
  return {
    workflowId: 'wf-1',
    issue: 7,
    stepId: step.stepId,
    stepKind: step.stepKind,
    iteration: 1,
    worktreePath: '/nonexistent',
    artifactsDir: '/nonexistent',
    system: systemPromptInput(definition, 7, 'agent/issue-7'),
    issueContext: 'Issue #7',
    stepPrompt: stepPromptInput(definition, step, variables),
    stepSchema: stepSchemaInput(definition, step),
    model: definition.model,
    readOnly: step.readOnly,
    budget: {},
    ...extra,
  };
}

test('the activity resolves the step prompt, appends operator guidance, and resolves the schema', async () => {
  const request = await toQueryStepRequest(await oneActivityInput({ guidance: 'look at sum.js first' }));
  assert.match(request.prompt, /<operator_guidance>\nlook at sum\.js first\n<\/operator_guidance>$/);
  assert.ok(request.prompt.length > 'look at sum.js first'.length + 40, request.prompt);
  assert.equal(typeof request.schema.full, 'object');
  assert.ok(request.systemPrompt.length > 0);
  assert.ok(!('stepPrompt' in request) && !('stepSchema' in request) && !('guidance' in request));
});

test('a text prompt (a retry prompt) is used as is', async () => {
  const request = await toQueryStepRequest(await oneActivityInput({ prompt: 'RETRY: fix the test' }));
  assert.equal(request.prompt, 'RETRY: fix the test');
});

test('a run resolves its schema once: later steps reuse it from the cache', async () => {
  const cache = createStepInputCache();
  const input = await oneActivityInput();
  await toQueryStepRequest(input, cache);
  const size = cache.size;
  await toQueryStepRequest({ ...input, iteration: 2 }, cache);
  assert.equal(cache.size, size, 'system prompt and schema are cached, not resolved again');
});

test('an unresolvable schema is a schema failure', async () => {
  const input = await oneActivityInput();
  const broken = { ...input, stepSchema: { ...input.stepSchema!, file: 'missing.schema.json' } };
  await assert.rejects(
    toQueryStepRequest(broken),
    (err: unknown) => AgentError.isInstance(err) && err.code === FailureType.SchemaResolution,
  );
});

test('a run resolves an input once; another run or another input resolves afresh', async () => {
  const cache = createStepInputCache();
  let calls = 0;
  const resolve = async (input: { file: string }): Promise<string> => `${input.file}#${++calls}`;
  assert.equal(await cache.get('run-a', { file: 'x' }, resolve), 'x#1');
  assert.equal(await cache.get('run-a', { file: 'x' }, resolve), 'x#1');
  assert.equal(await cache.get('run-b', { file: 'x' }, resolve), 'x#2');
  assert.equal(await cache.get('run-a', { file: 'y' }, resolve), 'y#3');
  assert.equal(calls, 3);
});

test('a failed resolution is not cached', async () => {
  const cache = createStepInputCache();
  let calls = 0;
  const flaky = async (): Promise<string> => {
    calls += 1;
    if (calls === 1) throw new Error('transient');
    return 'ok';
  };
  await assert.rejects(cache.get('run', 1, flaky), /transient/);
  assert.equal(await cache.get('run', 1, flaky), 'ok');
  assert.equal(calls, 2);
});

test('the cache keeps at most maxEntries, dropping the least recently used', async () => {
  const cache = createStepInputCache(2);
  let calls = 0;
  const resolve = async (n: number): Promise<number> => ((calls += 1), n);
  await cache.get('run', 1, resolve);
  await cache.get('run', 2, resolve);
  await cache.get('run', 1, resolve); // 1 is now the most recent
  await cache.get('run', 3, resolve); // evicts 2
  assert.equal(cache.size, 2);
  await cache.get('run', 1, resolve);
  assert.equal(calls, 3);
  await cache.get('run', 2, resolve);
  assert.equal(calls, 4);
});
