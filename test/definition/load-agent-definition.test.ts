import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { AgentError } from '../../src/contracts/errors.js';
import {
  DefinitionError,
  loadAgentDefinition,
  loadAgentDefinitionOrThrow,
} from '../../src/definition/load/load-agent-definition.js';
import { DEFAULT_MODEL } from '../../src/definition/normalise/normalise-agent.js';
import { fileURLToPath } from 'node:url';
import { copyFixture, editJson, FIXTURES, writeText } from './temp-dirs.js';

const valid = (name: string) => path.join(FIXTURES, 'valid', name);

async function load(dir: string) {
  const result = await loadAgentDefinition(dir);
  if (!result.ok) assert.fail(result.problems.map((p) => `${p.code} ${p.file}#${p.pointer} ${p.message}`).join('\n'));
  return result;
}

const CLOSURE_DEFAULTED = 'CLOSURE_ACTION_DEFAULTED agent.json#/runner/integrations/github/defaultClosureAction';

test('upstream vocabulary loads unchanged and is normalised', async () => {
  const { definition: d, warnings } = await load(valid('upstream-vocabulary'));
  // The one warning: an upstream (detect:graph) agent declaring no closure action is label-only.
  assert.deepEqual(
    warnings.map((w) => `${w.code} ${w.file}#${w.pointer}`),
    [CLOSURE_DEFAULTED],
  );
  assert.equal(d.name, 'hello');
  assert.equal(d.verdict.type, 'stepMachine');
  assert.equal(d.maxIterations, 10);
  assert.equal(d.entryStep, 'initial.work');
  assert.equal(d.c1, 'steps');
  assert.equal(d.systemPromptPath, 'prompts/system.md');
  assert.deepEqual(d.model, DEFAULT_MODEL);
  assert.deepEqual(
    { maxTokens: d.model.maxTokens, maxTurnsPerStep: d.model.maxTurnsPerStep },
    { maxTokens: 8192, maxTurnsPerStep: 40 },
  );
  assert.deepEqual(d.worktree, { root: undefined, branchPrefix: 'agent' });
  assert.equal(d.closureAction, 'label-only');
  assert.equal(d.closureAdaptation, undefined, 'the closure prompt follows what is declared');
  assert.deepEqual(d.parameters.topic, { type: 'string', description: 'Topic', required: true, cli: '--topic' });
  const initial = d.steps['initial.work'];
  assert.ok(initial);
  assert.equal(initial.stepKind, 'work');
  assert.deepEqual(initial.uvVariables, ['topic']);
  assert.deepEqual(initial.structuredGate, {
    allowedIntents: ['next', 'repeat'],
    intentSchemaRef: '#/properties/next_action/properties/action',
    intentField: 'next_action.action',
    handoffFields: ['analysis.plan'],
    failFast: true,
  });
  assert.deepEqual(d.steps['closure.done']?.transitions, {
    closing: { target: null },
    repeat: { target: 'closure.done' },
  });
  assert.equal(d.steps['continuation.work']?.readOnly, false);
  assert.deepEqual(d.completionSteps['closure.done'], {
    stepId: 'closure.done',
    name: 'Done checks',
    c2: 'retry',
    c3: 'done',
    conditions: [{ validator: 'git-clean', params: {} }],
    onFail: { action: 'retry', maxAttempts: 3 },
  });
  assert.equal(d.validators['git-clean']?.type, 'command');
  assert.equal(d.validators['type-check'], undefined, 'unconfigured built-ins are not in the definition');
  assert.deepEqual(d.failurePatterns['git-dirty']?.params, ['changedFiles', 'untrackedFiles']);
  assert.match(d.hash, /^[0-9a-f]{64}$/);
  assert.ok(Object.isFrozen(d) && Object.isFrozen(d.steps) && Object.isFrozen(initial.structuredGate.allowedIntents));
});

test('seed vocabulary loads: stepMachine, entryStepMapping, completionSteps, onFail {retry}', async () => {
  const { definition: d } = await load(valid('seed-vocabulary'));
  assert.equal(d.verdict.type, 'stepMachine');
  assert.equal(d.maxIterations, 12);
  assert.equal(d.entryStep, 'initial.work');
  assert.deepEqual(d.completionSteps['closure.done'], {
    stepId: 'closure.done',
    name: 'closure.done',
    c2: 'retry',
    c3: 'done',
    conditions: [{ validator: 'git-clean', params: {} }],
    onFail: { action: 'retry', maxAttempts: 2 },
  });
  assert.deepEqual(d.validators['git-clean'], {
    type: 'command',
    command: 'git status --porcelain',
    successWhen: 'empty',
    failurePattern: 'git-dirty',
    extractParams: { changedFiles: 'parseChangedFiles', untrackedFiles: 'parseUntrackedFiles' },
  });
  assert.deepEqual(d.failurePatterns['git-dirty'], {
    description: 'The working tree has uncommitted or untracked changes.',
    edition: 'failed',
    adaptation: 'git-dirty',
    params: ['changedFiles', 'untrackedFiles'],
  });
});

test('default layout: registry/ holds agent.json, registry and schemas; our extensions apply', async () => {
  const dir = valid('default-layout');
  const { definition: d } = await load(dir);
  assert.equal(d.schemasDir, path.join(path.resolve(dir), 'registry', 'schemas'));
  assert.equal(d.promptsDir, path.join(path.resolve(dir), 'prompts'));
  assert.equal(d.verdict.type, 'iterationBudget');
  assert.equal(d.entryStep, 'initial.work', 'entryStepMapping keyed by the upstream name of the seed type');
  assert.deepEqual(d.model, {
    model: 'claude-sonnet-4-5',
    maxTokens: 4096,
    maxTurnsPerStep: 40,
    contextManagement: DEFAULT_MODEL.contextManagement,
  });
  assert.deepEqual(d.worktree, { root: undefined, branchPrefix: 'bot' });
  assert.equal(d.closureAction, 'label-and-close');
  assert.deepEqual(d.validators['type-check'], {
    type: 'command',
    command: 'npx tsc --noEmit',
    successWhen: 'exitCode:0',
    failurePattern: 'type-error',
    extractParams: { errors: 'parseTypeErrors' },
  });
  assert.equal((d.validators.tests as { command?: string }).command, 'npm test');
  assert.deepEqual(
    d.completionSteps['closure.done']?.conditions.map((c) => c.validator),
    ['git-clean', 'type-check', 'tests'],
  );
});

test('the hash is stable and changes with any prompt or schema', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  const first = (await load(dir)).definition.hash;
  assert.equal((await load(dir)).definition.hash, first);
  assert.equal(
    (await load(copyFixture('valid/upstream-vocabulary'))).definition.hash,
    first,
    'independent of location',
  );
  writeText(dir, 'prompts/steps/closure/done/f_default.md', 'Changed.\n');
  assert.notEqual((await load(dir)).definition.hash, first);
});

test('warnings do not block loading: unused prompt, handoff on initial, unknown key', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  writeText(dir, 'prompts/steps/initial/old/f_default.md', 'left over\n');
  writeText(dir, 'prompts/steps/retry/done/f_failed.md', 'retry prompts are never unused\n');
  editJson(dir, 'agent.json', (a) => {
    a.extra = true;
  });
  editJson(dir, 'steps_registry.json', (r) => {
    r.steps['initial.work'].structuredGate.allowedIntents.push('handoff');
    r.steps['initial.work'].transitions.handoff = { target: 'closure.done' };
  });
  editJson(dir, 'schemas/hello.schema.json', (s) => {
    s['initial.work'].properties.next_action.properties.action.enum.push('handoff');
  });
  const { warnings, definition } = await load(dir);
  assert.deepEqual(warnings.map((w) => `${w.code} ${w.file}#${w.pointer}`).sort(), [
    CLOSURE_DEFAULTED,
    'HANDOFF_ON_INITIAL steps_registry.json#/steps/initial.work/structuredGate/allowedIntents',
    'PROMPT_FILE_UNUSED prompts/steps/initial/old/f_default.md#',
    'UNKNOWN_KEY agent.json#/extra',
  ]);
  assert.equal(definition.warnings.length, 4);
});

test('every problem is reported together, across both files', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    r.entryStep = 'nowhere';
    r.steps['closure.done'].transitions.repeat.target = 'closure.dne';
    r.steps['initial.work'].stepId = 'wrong';
  });
  rmSync(path.join(dir, 'prompts/steps/continuation/work/f_default.md'));
  const result = await loadAgentDefinition(dir);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.deepEqual(result.problems.map((p) => p.code).sort(), [
    'PROMPT_FILE_MISSING',
    'STEP_ID_MISMATCH',
    'UNKNOWN_ENTRY_STEP',
    'UNKNOWN_TRANSITION_TARGET',
  ]);
});

test('schema errors in both files are reported together', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'agent.json', (a) => {
    a.runner.verdict.type = 'nope';
  });
  editJson(dir, 'steps_registry.json', (r) => {
    delete r.steps['closure.done'].c3;
  });
  const result = await loadAgentDefinition(dir);
  assert.ok(!result.ok);
  assert.deepEqual(
    result.problems.map((p) => `${p.code} ${p.file}#${p.pointer}`),
    ['AGENT_SCHEMA agent.json#/runner/verdict/type', 'REGISTRY_SCHEMA steps_registry.json#/steps/closure.done/c3'],
  );
});

test('stepKind is inferred from c2; repeat defaults to the same step; jump may use targetField', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    delete r.steps['continuation.work'].stepKind;
    delete r.steps['continuation.work'].transitions.repeat;
    r.steps['continuation.work'].structuredGate.allowedIntents.push('jump');
    r.steps['continuation.work'].structuredGate.targetField = 'next_action.target';
  });
  editJson(dir, 'schemas/hello.schema.json', (s) => {
    s['continuation.work'].properties.next_action.properties.action.enum.push('jump');
  });
  const step = (await load(dir)).definition.steps['continuation.work'];
  assert.equal(step?.stepKind, 'work');
  assert.deepEqual(step?.transitions.repeat, { target: 'continuation.work' });
  assert.equal(step?.transitions.jump, undefined);
});

test('loadAgentDefinitionOrThrow throws DefinitionError with every problem, one line each', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    r.agentId = 'other';
    r.steps['closure.done'].transitions.repeat.target = 'closure.dne';
  });
  await assert.rejects(loadAgentDefinitionOrThrow(dir), (error: unknown) => {
    assert.ok(error instanceof DefinitionError);
    assert.ok(AgentError.isInstance(error));
    assert.equal(error.code, 'CONFIG_INVALID');
    assert.deepEqual(error.format().split('\n'), [
      "steps_registry.json#/agentId: AGENT_ID_MISMATCH agentId 'other' differs from the agent name (expected 'hello' (agent.json name))",
      "steps_registry.json#/steps/closure.done/transitions/repeat/target: UNKNOWN_TRANSITION_TARGET transition 'repeat' of step 'closure.done' leads to unknown step 'closure.dne' (expected a step id of this registry or null)",
    ]);
    return true;
  });
});

test('JSON syntax errors name the line and column', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  writeText(dir, 'steps_registry.json', '{\n  "agentId": "hello",\n  "steps": {,}\n}\n');
  const result = await loadAgentDefinition(dir);
  assert.ok(!result.ok);
  assert.equal(result.problems.length, 1);
  assert.match(result.problems[0]?.message ?? '', /invalid JSON at line 3, column 13/);
});

test("the project's default agent (registry/ + prompts/ at the repository root) loads", async () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const result = await loadAgentDefinition(root);
  assert.ok(
    result.ok,
    result.ok ? '' : result.problems.map((p) => `${p.code} ${p.file}#${p.pointer} ${p.message}`).join('\n'),
  );
});

test('a step no entry reaches is a warning, as upstream: the agent still loads', async () => {
  const { warnings } = await load(copyFixture('unreachable-step-warning'));
  assert.deepEqual(
    warnings.map((w) => `${w.code} ${w.file}#${w.pointer}`),
    [CLOSURE_DEFAULTED, 'UNREACHABLE_STEP steps_registry.json#/steps/continuation.extra'],
  );
});

test('reachability is checked from every entry: entryStepMapping targets count as entries', async () => {
  const dir = copyFixture('unreachable-step-warning');
  editJson(dir, 'steps_registry.json', (r) => {
    r.entryStepMapping = { 'detect:graph': 'initial.work', 'count:iteration': 'continuation.extra' };
  });
  const { warnings, definition } = await load(dir);
  assert.deepEqual(
    warnings.map((w) => `${w.code} ${w.file}#${w.pointer}`),
    [CLOSURE_DEFAULTED],
  );
  assert.equal(definition.entryStep, 'initial.work');
});
