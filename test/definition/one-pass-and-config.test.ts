/**
 * Validation in one pass (a file failing its JSON Schema still goes through every
 * rule: shape and graph/prompt problems come together, warnings apart, exit 2), and
 * the config.json / config.local.json overlay beside agent.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAgentDefinition, loadAgentDefinitionOrThrow } from '../../src/definition/load/load-agent-definition.js';
import { runValidate } from '../../src/definition/validate-command.js';
import { mutatedCopy } from './mutate-definition.js';

const AGENTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents');
const SECTIONED = join(AGENTS, 'sectioned');

test('a shape error does not hide graph and prompt errors of the same registry', async () => {
  const dir = await mutatedCopy(SECTIONED, [
    {
      file: 'steps_registry.json',
      patch: [
        { set: '/steps/initial.work/uvVariables', value: 'topic' },
        { set: '/steps/initial.work/transitions/next/target', value: 'closure.gone' },
      ],
    },
    { file: 'prompts/steps/closure/done/f_default.md', delete: true },
    { file: 'prompts/steps/closure/done/f_default_label-only.md', delete: true },
  ]);
  const result = await loadAgentDefinition(dir);
  assert.equal(result.ok, false);
  const codes = result.ok ? [] : result.problems.map((p) => p.code);
  for (const code of ['REGISTRY_SCHEMA', 'UNKNOWN_TRANSITION_TARGET', 'PROMPT_FILE_MISSING']) {
    assert.ok(codes.includes(code), `${code} in ${codes.join(', ')}`);
  }
});

test('an agent.json shape error does not hide registry rules; validate exits 2 with errors, then warnings', async () => {
  const dir = await mutatedCopy(SECTIONED, [
    { file: 'agent.json', patch: [{ set: '/runner/verdict/config', value: 'six' }] },
    { file: 'steps_registry.json', patch: [{ set: '/steps/closure.done/inputs/plan/from', value: 'nowhere.plan' }] },
  ]);
  const outcome = await runValidate(dir);
  assert.equal(outcome.exitCode, 2);
  const lines = outcome.text.split('\n');
  assert.ok(lines.some((l) => l.startsWith('error   agent.json#/runner/verdict/config: AGENT_SCHEMA')));
  assert.ok(lines.some((l) => l.startsWith('error   steps_registry.json') && l.includes('INPUT_SOURCE_UNKNOWN')));
  const firstWarning = lines.findIndex((l) => l.startsWith('warning'));
  const lastError = lines.map((l) => l.startsWith('error')).lastIndexOf(true);
  assert.ok(firstWarning === -1 || firstWarning > lastError, 'warnings come after the errors');
});

test('config.json overlays agent.json: worktreeRoot, dotted overrides, arrays replaced; config.local.json wins', async () => {
  const dir = await mutatedCopy(SECTIONED, [
    {
      file: 'config.json',
      json: {
        worktree: { forceWorktree: true, worktreeRoot: '../worktree' },
        overrides: { 'runner.boundaries.allowedTools': ['Read', 'Grep'] },
        runner: { verdict: { config: { maxIterations: 9 } } },
      },
    },
    { file: 'config.local.json', json: { runner: { verdict: { config: { maxIterations: 4 } } }, logging: {} } },
  ]);
  const result = await loadAgentDefinition(dir);
  assert.ok(result.ok, result.ok ? '' : result.problems.map((p) => p.message).join('\n'));
  const definition = result.definition;
  assert.equal(definition.worktree.root, '../worktree');
  assert.equal(definition.maxIterations, 4);
  // allowedTools replaced by the override: no tool that writes → read-only steps.
  assert.equal(definition.steps['initial.work']?.readOnly, true);
  assert.deepEqual(
    result.warnings.filter((w) => w.file.startsWith('config')).map((w) => [w.file, w.code]),
    [['config.local.json', 'CONFIG_KEY_UNKNOWN']],
  );
  const plain = await loadAgentDefinitionOrThrow(SECTIONED);
  assert.notEqual(plain.hash, definition.hash, 'the overlay is part of the definition hash');
});
