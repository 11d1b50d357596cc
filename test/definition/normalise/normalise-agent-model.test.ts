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
