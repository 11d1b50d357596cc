import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { runValidate } from '../../src/definition/validate-command.js';
import { copyFixture, editJson, FIXTURES, tempDir, writeJson, writeText } from './temp-dirs.js';

test('a valid definition: exit 0 and a summary with the transition graph', async () => {
  const { exitCode, text } = await runValidate(path.join(FIXTURES, 'valid', 'upstream-vocabulary'));
  assert.equal(exitCode, 0, text);
  assert.match(text, /^Agent 'hello' is valid \(definition [0-9a-f]{12}\)\./);
  assert.match(text, /Steps: 3; entry step: initial\.work/);
  assert.match(text, /initial\.work \(work\) --next--> continuation\.work, --repeat--> initial\.work/);
  assert.match(text, /closure\.done \(closure\) --closing--> \(end\), --repeat--> closure\.done/);
  assert.match(text, /Resolved 4 prompt\(s\) \(including the system prompt\) and 3 step schema\(s\)\./);
});

test('an invalid definition: exit 2 and every problem on its own line', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    r.steps['closure.done'].transitions.repeat.target = 'closure.dne';
    r.validationSteps['closure.done'].validationConditions.push({ validator: 'lint' });
  });
  writeText(dir, 'prompts/steps/unused/x/f_default.md', 'x');
  const { exitCode, text } = await runValidate(dir);
  assert.equal(exitCode, 2);
  const lines = text.split('\n');
  assert.match(lines[0] ?? '', /invalid: 2 error\(s\), 2 warning\(s\)/);
  assert.ok(
    lines.includes(
      "error   steps_registry.json#/steps/closure.done/transitions/repeat/target: UNKNOWN_TRANSITION_TARGET transition 'repeat' of step 'closure.done' leads to unknown step 'closure.dne' (expected a step id of this registry or null)",
    ),
  );
  assert.ok(
    lines.some((l) =>
      l.startsWith(
        'error   steps_registry.json#/validationSteps/closure.done/validationConditions/1/validator: VALIDATOR_COMMAND_NOT_CONFIGURED',
      ),
    ),
  );
  assert.ok(lines.some((l) => l.startsWith('warning prompts/steps/unused/x/f_default.md#: PROMPT_FILE_UNUSED')));
  // An upstream-format agent with no closure action: what was chosen and how to override it.
  assert.ok(
    lines.some(
      (l) =>
        l.startsWith('warning agent.json#/runner/integrations/github/defaultClosureAction: CLOSURE_ACTION_DEFAULTED') &&
        l.includes('closure action is label-only') &&
        l.includes('"defaultClosureAction": "close"'),
    ),
    text,
  );
});

/** A linear registry of `count` steps (work → … → verification → closure), with prompts and a shared schema file. */
function generateAgent(count: number): string {
  const dir = tempDir('cfg-50-');
  writeJson(dir, 'agent.json', {
    name: 'big',
    // Every prompt uses {uv-topic}: validate requires it to have a source.
    parameters: { topic: { type: 'string', description: 'Topic', required: true, cli: '--topic' } },
    runner: { flow: { systemPromptPath: 'prompts/system.md' }, verdict: { type: 'detect:graph' } },
  });
  writeText(dir, 'prompts/system.md', 'System.\n');
  const defs = {
    base: {
      type: 'object',
      required: ['summary', 'next_action'],
      properties: {
        summary: { type: 'string' },
        next_action: { type: 'object', required: ['action'], properties: { action: { type: 'string' } } },
      },
    },
  };
  writeJson(dir, 'schemas/common.schema.json', { $defs: defs });
  const schemas: Record<string, unknown> = {};
  const steps: Record<string, unknown> = {};
  const ids = Array.from({ length: count }, (_, i) =>
    i === 0
      ? 'initial.s0'
      : i === count - 1
        ? 'closure.done'
        : i === count - 2
          ? 'verification.check'
          : `continuation.s${i}`,
  );
  ids.forEach((id, i) => {
    const [c2 = '', c3 = ''] = id.split('.');
    const intents =
      c2 === 'closure'
        ? ['closing', 'repeat']
        : c2 === 'verification'
          ? ['next', 'repeat', 'escalate']
          : ['next', 'repeat'];
    schemas[id] = {
      allOf: [{ $ref: 'common.schema.json#/$defs/base' }],
      properties: {
        next_action: {
          type: 'object',
          required: ['action'],
          properties: { action: { type: 'string', enum: intents } },
        },
      },
    };
    const transitions: Record<string, unknown> = { repeat: { target: id } };
    if (intents.includes('next')) transitions.next = { target: ids[i + 1] };
    if (intents.includes('escalate')) transitions.escalate = { target: ids[1] };
    if (intents.includes('closing')) transitions.closing = { target: null };
    steps[id] = {
      stepId: id,
      name: id,
      c2,
      c3,
      uvVariables: ['uv-topic'],
      outputSchemaRef: { file: 'steps.schema.json', schema: id },
      structuredGate: {
        allowedIntents: intents,
        intentSchemaRef: '#/properties/next_action/properties/action',
        intentField: 'next_action.action',
      },
      transitions,
    };
    writeText(dir, `prompts/steps/${c2}/${c3}/f_default.md`, `---\nstep: ${id}\n---\nDo ${id} about {uv-topic}.\n`);
  });
  writeJson(dir, 'schemas/steps.schema.json', schemas);
  writeJson(dir, 'steps_registry.json', {
    agentId: 'big',
    version: '1.0.0',
    c1: 'steps',
    entryStep: 'initial.s0',
    steps,
  });
  return dir;
}

test('a 50-step registry validates well under 2 s', async () => {
  const dir = generateAgent(50);
  const started = performance.now();
  const { exitCode, text } = await runValidate(dir);
  const ms = performance.now() - started;
  console.log(`validate of a 50-step registry took ${ms.toFixed(0)} ms`);
  assert.equal(exitCode, 0, text);
  assert.match(text, /Steps: 50; entry step: initial\.s0/);
  assert.match(text, /Resolved 51 prompt\(s\) \(including the system prompt\) and 50 step schema\(s\)\./);
  assert.ok(ms < 2000, `took ${ms} ms`);
});

test('validate names the prompt file and each {uv-x} that nothing will set; declared sources pass', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  assert.equal((await runValidate(dir)).exitCode, 0, 'the fixture is valid as shipped');
  writeText(
    dir,
    'prompts/steps/continuation/work/f_default.md',
    'Continue {uv-topic} at {uv-iteration} with {uv-initial.work_plan} and {uv-initial_work_plan}; also {uv-ticket_url}.\n',
  );
  writeText(dir, 'prompts/system.md', 'System for {uv-agent_name} on {uv-branch}; {uv-topic} is a step variable.\n');
  const { exitCode, text, report } = await runValidate(dir);
  assert.equal(exitCode, 2, text);
  const errors = report.errors.map((e) => (typeof e === 'string' ? { code: e, file: '', message: e } : e));
  assert.deepEqual(
    errors.map((e) => `${e.code} ${e.file} ${/\{uv-([^}]+)\}/.exec(e.message)?.[1] ?? ''}`),
    [
      'PROMPT_VARIABLE_UNBOUND prompts/system.md topic',
      'PROMPT_VARIABLE_UNBOUND prompts/steps/continuation/work/f_default.md ticket_url',
    ],
  );
  assert.match(errors[1]?.message ?? '', /^step 'continuation\.work' uses \{uv-ticket_url\}/);
  assert.match(text, /declare it as a parameter in agent\.json/);
});

test('the harness variable lists validate uses are exactly what a run sets', async () => {
  const { buildPromptVariables } = await import('../../src/contracts/step-inputs.js');
  const { systemPromptInput } = await import('../../src/contracts/step-inputs.js');
  const { HARNESS_STEP_VARIABLES, HARNESS_SYSTEM_VARIABLES } =
    await import('../../src/definition/prompt-variable-sources.js');
  const { loadAgentDefinitionOrThrow } = await import('../../src/definition/load/load-agent-definition.js');
  const set = buildPromptVariables({
    parameters: {},
    iteration: 1,
    maxIterations: 3,
    previousSummary: '',
    issue: { number: 1, title: 't', body: '', labels: [], state: 'open' },
    stepContext: {},
    agentName: 'a',
    branch: 'b',
  });
  assert.deepEqual(Object.keys(set).sort(), [...HARNESS_STEP_VARIABLES].sort());
  const definition = await loadAgentDefinitionOrThrow(path.join(FIXTURES, 'valid/upstream-vocabulary'));
  assert.deepEqual(
    Object.keys(systemPromptInput(definition, 1, 'b').variables).sort(),
    [...HARNESS_SYSTEM_VARIABLES].sort(),
  );
});

test('validate rejects an unknown extractor name, naming the pointer and the known names', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    r.validators['git-clean'].extractParams.untrackedFiles = 'parseUntracked';
  });
  const { exitCode, text } = await runValidate(dir);
  assert.equal(exitCode, 2, text);
  const line = text.split('\n').find((l) => l.includes('UNKNOWN_EXTRACTOR'));
  assert.ok(line, text);
  assert.ok(
    line.startsWith(
      'error   steps_registry.json#/validators/git-clean/extractParams/untrackedFiles: UNKNOWN_EXTRACTOR',
    ),
    line,
  );
  assert.match(line, /unknown extractor 'parseUntracked'/);
  assert.match(line, /expected an extractor among parseChangedFiles, parseUntrackedFiles, .*exitCode\)$/);
});

test('an extractor upstream declares but implements nowhere is a warning saying its param is null', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    r.validators['git-clean'].extractParams.branchName = 'parseBranchName';
  });
  const { exitCode, text, report } = await runValidate(dir);
  assert.equal(exitCode, 0, text);
  const found = report.warnings.find((w) => w.code === 'EXTRACTOR_UNIMPLEMENTED');
  assert.equal(found?.pointer, '/validators/git-clean/extractParams/branchName');
  assert.match(
    found?.message ?? '',
    /'parseBranchName', which upstream declares but implements nowhere: 'branchName' is null/,
  );
});
