/**
 * agent.json `runner.model`: context management is validated (closed keys, known
 * strategies, bounded numbers) and normalised over the defaults.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAgentDefinition } from '../../../src/definition/load/load-agent-definition.js';
import { DEFAULT_CONTEXT_MANAGEMENT } from '../../../src/contracts/model-options.js';
import { copyFixture, editJson } from '../temp-dirs.js';

async function withModel(model: Record<string, unknown>) {
  const dir = copyFixture('valid/default-layout');
  editJson(dir, 'registry/agent.json', (agent) => {
    agent['runner'].model = model;
  });
  return loadAgentDefinition(dir);
}

const codes = (problems: ReadonlyArray<{ code: string; pointer: string }>): string[] =>
  problems.map((p) => `${p.code} ${p.pointer}`);

test('contextManagement defaults, and a partial one is merged over them', async () => {
  const plain = await withModel({});
  assert.ok(plain.ok);
  assert.deepEqual(plain.definition.model.contextManagement, DEFAULT_CONTEXT_MANAGEMENT);
  const partial = await withModel({ contextManagement: { keepToolResults: 6, maskChunk: 2 } });
  assert.ok(partial.ok);
  assert.deepEqual(partial.definition.model.contextManagement, {
    ...DEFAULT_CONTEXT_MANAGEMENT,
    keepToolResults: 6,
    maskChunk: 2,
  });
  const api = await withModel({ contextManagement: { strategy: 'api-clear', triggerTokens: 50_000 } });
  assert.ok(api.ok);
  assert.equal(api.definition.model.contextManagement?.strategy, 'api-clear');
});

test('a bad contextManagement is an error that points at it', async () => {
  for (const [contextManagement, where] of [
    [{ strategy: 'summarise' }, '/runner/model/contextManagement/strategy'],
    [{ keepToolResults: 0 }, '/runner/model/contextManagement/keepToolResults'],
    [{ maskChunk: 2.5 }, '/runner/model/contextManagement/maskChunk'],
    [{ keepToolResult: 3 }, '/runner/model/contextManagement/keepToolResult'],
  ] as const) {
    const result = await withModel({ contextManagement });
    assert.equal(result.ok, false, JSON.stringify(contextManagement));
    assert.ok(
      codes(result.problems).some((c) => c.endsWith(where)),
      `${JSON.stringify(contextManagement)}: ${codes(result.problems).join('; ')}`,
    );
  }
});

test("today's model ids and aliases are accepted without a warning; an alias becomes its id", async () => {
  for (const model of [
    'claude-sonnet-5-5',
    'claude-opus-5-5',
    'claude-haiku-5-5',
    'claude-fable-5-2',
    'claude-haiku-4-5-20251001',
    'opus',
    'fable',
  ]) {
    const result = await withModel({ model });
    assert.ok(result.ok, model);
    assert.deepEqual(
      result.warnings.filter((p) => p.pointer.startsWith('/runner/model')).map((p) => p.code),
      [],
      model,
    );
  }
  const alias = await withModel({ model: 'opus' });
  assert.ok(alias.ok);
  assert.equal(alias.definition.model.model, 'claude-opus-5-5');
});

test('an unknown model is a warning naming it; effort and thinking pass through and are checked', async () => {
  const unknown = await withModel({ model: 'claude-opus-9' });
  assert.ok(unknown.ok, 'a newer model still loads');
  const warned = unknown.warnings.find((p) => p.code === 'MODEL_UNKNOWN');
  assert.equal(warned?.pointer, '/runner/model/model');
  assert.match(warned?.message ?? '', /'claude-opus-9' is not in the price table/);

  const tuned = await withModel({ model: 'claude-sonnet-5-5', effort: 'medium', thinking: 'adaptive' });
  assert.ok(tuned.ok);
  assert.deepEqual([tuned.definition.model.effort, tuned.definition.model.thinking], ['medium', 'adaptive']);
  assert.deepEqual(codes(tuned.warnings.filter((p) => p.pointer.startsWith('/runner/model'))), []);

  const bad = await withModel({ effort: 'extreme' });
  assert.equal(bad.ok, false);
  assert.ok(codes(bad.problems).some((c) => c.endsWith('/runner/model/effort')));

  const refused = await withModel({ model: 'claude-opus-5-5', thinking: 'disabled' });
  assert.ok(codes(refused.warnings).includes('THINKING_ALWAYS_ON /runner/model/model'));
  const noEffort = await withModel({ model: 'claude-haiku-4-5', effort: 'low' });
  assert.ok(codes(noEffort.warnings).includes('EFFORT_UNSUPPORTED /runner/model/model'));
});
