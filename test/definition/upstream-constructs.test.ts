/**
 * Loading upstream constructs from fixtures of our own (test/fixtures/agents):
 * `section.*` fragments are set apart from the flow and offered to prompts; ungated
 * closure and runner steps get the built-in closing gate; step inputs, per-step
 * model, permissionMode and allowedTools are mapped; `defaultClosureAction` picks the
 * closure prompt variant.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAgentDefinition, loadAgentDefinitionOrThrow } from '../../src/definition/load/load-agent-definition.js';
import { resolveC3lPrompt } from '../../src/definition/c3l/resolve-c3l-prompt.js';
import { stepPromptInput } from '../../src/contracts/step-inputs.js';
import { mutatedCopy } from './mutate-definition.js';

const AGENTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents');

test('section.* steps are prompt fragments: not flow steps, offered as {uv-section_<name>}', async () => {
  const definition = await loadAgentDefinitionOrThrow(join(AGENTS, 'sectioned'));
  assert.deepEqual(Object.keys(definition.steps), ['initial.work', 'closure.done']);
  assert.equal(definition.sections?.['section.projectcontext']?.variable, 'section_projectcontext');
  const step = definition.steps['initial.work']!;
  const withProject = await resolveC3lPrompt(
    stepPromptInput(definition, step, { topic: 't', depth: '1', projectTitle: 'Apollo' }),
  );
  assert.match(withProject.text, /^## Project Apollo\nStep initial.work/);
  const without = await resolveC3lPrompt(stepPromptInput(definition, step, { topic: 't', depth: '1' }));
  assert.match(without.text, /^Step initial.work/);
});

test('defaultClosureAction label-only selects the closure variant; close keeps f_default', async () => {
  const definition = await loadAgentDefinitionOrThrow(join(AGENTS, 'sectioned'));
  assert.equal(definition.closureAdaptation, 'label-only');
  const closure = definition.steps['closure.done']!;
  const vars = { initial_work_plan: 'p', initial_work_risk: 'r' };
  assert.match((await resolveC3lPrompt(stepPromptInput(definition, closure, vars))).text, /label-only variant/);
  const plain = { ...definition, closureAdaptation: undefined };
  assert.match((await resolveC3lPrompt(stepPromptInput(plain, closure, vars))).text, /close variant/);
  // A work step never takes the closure adaptation.
  assert.equal(stepPromptInput(definition, definition.steps['initial.work']!, {}).adaptation, undefined);
});

test('step inputs are normalised with upstream defaults (required false unless said)', async () => {
  const definition = await loadAgentDefinitionOrThrow(join(AGENTS, 'sectioned'));
  assert.deepEqual(definition.steps['closure.done']?.inputs, {
    plan: { from: 'initial.work.plan', required: true },
    risk: { from: 'initial.work.risk', required: false, default: 'low' },
  });
});

test('ungated closure and runner steps get the built-in closing gate; runner args kept for substitution', async () => {
  const ungated = await loadAgentDefinitionOrThrow(join(AGENTS, 'ungated-closure'));
  const triage = ungated.steps['triage']!;
  assert.equal(triage.gated, false);
  assert.deepEqual(triage.structuredGate.allowedIntents, ['closing']);
  assert.ok(triage.outputSchemaRef.inline, 'a built-in schema');
  const runner = await loadAgentDefinitionOrThrow(join(AGENTS, 'runner-closure'));
  assert.equal(runner.steps['merge']?.runner?.timeoutMs, 20000);
  assert.deepEqual(runner.steps['merge']?.runner?.args.slice(2), ['${context.prNumber}', '${context.verdict}']);
  // allowedTools [] names no tool that can write: every step is read-only.
  assert.equal(runner.steps['merge']?.readOnly, true);
});

async function codes(dir: string): Promise<string[]> {
  const result = await loadAgentDefinition(dir);
  return result.ok ? result.warnings.map((w) => w.code) : result.problems.map((p) => p.code);
}

test('an ungated work step, a runner on a work step and an unknown runner context key are errors', async () => {
  const ungatedWork = await mutatedCopy(join(AGENTS, 'ungated-closure'), [
    { file: 'steps_registry.json', patch: [{ set: '/steps/triage/stepKind', value: 'work' }] },
  ]);
  assert.ok((await codes(ungatedWork)).includes('UNGATED_FLOW_STEP'));
  const badContext = await mutatedCopy(join(AGENTS, 'runner-closure'), [
    { file: 'steps_registry.json', patch: [{ set: '/steps/merge/runner/args/3', value: '${context.prNumbr}' }] },
  ]);
  assert.deepEqual(await codes(badContext), ['RUNNER_CONTEXT_UNKNOWN']);
  const runnerOnWork = await mutatedCopy(join(AGENTS, 'runner-closure'), [
    { file: 'steps_registry.json', patch: [{ set: '/steps/merge/stepKind', value: 'work' }] },
  ]);
  assert.ok((await codes(runnerOnWork)).includes('RUNNER_NOT_CLOSURE'));
});

test('a stepMachine agent without any structuredGate is refused, naming the file and pointer', async () => {
  // The triager-like agent loads under count:iteration; under detect:graph it has no machine.
  assert.ok((await loadAgentDefinition(join(AGENTS, 'ungated-closure'))).ok, 'the fixture loads as shipped');
  for (const type of ['detect:graph', 'stepMachine']) {
    const dir = await mutatedCopy(join(AGENTS, 'ungated-closure'), [
      { file: 'agent.json', patch: [{ set: '/runner/verdict', value: { type, config: { maxIterations: 3 } } }] },
      { file: 'steps_registry.json', patch: [{ set: '/entryStepMapping/' + type, value: 'triage' }] },
    ]);
    const result = await loadAgentDefinition(dir);
    assert.equal(result.ok, false, type);
    const found = result.ok ? [] : result.problems;
    assert.deepEqual(
      found.map((p) => `${p.code} ${p.file}#${p.pointer}`),
      ['STEP_MACHINE_WITHOUT_GATE agent.json#/runner/verdict/type'],
    );
    assert.match(found[0]?.message ?? '', new RegExp(`'${type}' \\(stepMachine\\) needs a step machine`));
    assert.match(found[0]?.message ?? '', /no step of steps_registry\.json has a structuredGate/);
  }
  // One gated step is a machine: the stepMachine intents fixture loads.
  assert.ok((await loadAgentDefinition(join(AGENTS, 'intents'))).ok);
});

test('a gated flow with a step lacking its gate is an error naming what is missing', async () => {
  const dir = await mutatedCopy(join(AGENTS, 'sectioned'), [
    { file: 'steps_registry.json', patch: [{ remove: '/steps/closure.done/structuredGate' }] },
  ]);
  const result = await loadAgentDefinition(dir);
  assert.equal(result.ok, false);
  assert.ok(
    !result.ok &&
      result.problems.some((p) => p.code === 'FLOW_STEP_INCOMPLETE' && p.message.includes('structuredGate')),
  );
});

test('inputs from an unknown step are an error; per-step model and permissionMode plan are mapped', async () => {
  const dir = await mutatedCopy(join(AGENTS, 'sectioned'), [
    {
      file: 'steps_registry.json',
      patch: [{ set: '/steps/closure.done/inputs/plan/from', value: 'initial.wrk.plan' }],
    },
  ]);
  assert.ok((await codes(dir)).includes('INPUT_SOURCE_UNKNOWN'));
  const mapped = await mutatedCopy(join(AGENTS, 'sectioned'), [
    {
      file: 'steps_registry.json',
      patch: [
        { set: '/steps/initial.work/model', value: 'haiku' },
        { set: '/steps/initial.work/permissionMode', value: 'plan' },
      ],
    },
  ]);
  const definition = await loadAgentDefinitionOrThrow(mapped);
  assert.equal(definition.steps['initial.work']?.model, 'claude-haiku-5-5');
  assert.equal(definition.steps['initial.work']?.readOnly, true);
  assert.equal(definition.steps['closure.done']?.readOnly, false);
});

test('allowedTools we do not provide and agent-level permissionMode plan are warnings, not silence', async () => {
  const dir = await mutatedCopy(join(AGENTS, 'ungated-closure'), [
    {
      file: 'agent.json',
      patch: [
        { set: '/runner/boundaries/allowedTools', value: ['Read', 'Bash', 'WebFetch'] },
        { set: '/runner/boundaries/permissionMode', value: 'plan' },
      ],
    },
  ]);
  assert.deepEqual((await codes(dir)).sort(), [
    'CLOSURE_ACTION_DEFAULTED',
    'PERMISSION_MODE_AGENT_LEVEL',
    'TOOL_UNSUPPORTED',
  ]);
});

test('each unsupported tool is named with its reason; TodoWrite and github_read are provided', async () => {
  const dir = await mutatedCopy(join(AGENTS, 'ungated-closure'), [
    {
      file: 'agent.json',
      patch: [
        {
          set: '/runner/boundaries/allowedTools',
          value: ['Read', 'TodoWrite', 'mcp__github__github_read', 'Task', 'WebFetch', 'Skill'],
        },
      ],
    },
  ]);
  const result = await loadAgentDefinition(dir);
  assert.ok(result.ok);
  const tools = result.warnings.filter((w) => w.code === 'TOOL_UNSUPPORTED');
  assert.deepEqual(
    tools.map((w) => [w.pointer, w.message]),
    [
      [
        '/runner/boundaries/allowedTools/3',
        'unsupported tool Task: steps run without it (sub-agents are out of scope: one run is one agent on one issue)',
      ],
      [
        '/runner/boundaries/allowedTools/4',
        'unsupported tool WebFetch: steps run without it (no network in the agent sandbox, by design)',
      ],
      [
        '/runner/boundaries/allowedTools/5',
        'unsupported tool Skill: steps run without it (Claude Code skills are not loaded; put the instructions in the step prompt)',
      ],
    ],
  );
});

test('semanticMatch: a /regex/ that does not compile is an error naming the keyword; detect:structured warns of the forms it lacks', async () => {
  const bad = await mutatedCopy(join(AGENTS, 'ungated-closure'), [
    {
      file: 'steps_registry.json',
      patch: [
        {
          set: '/failurePatterns',
          value: {
            'git-dirty': { edition: 'failed', adaptation: 'git-dirty', semanticMatch: ['dirty', '/unclosed(/'] },
          },
        },
      ],
    },
  ]);
  const result = await loadAgentDefinition(bad);
  assert.equal(result.ok, false);
  const found = result.ok ? undefined : result.problems.find((p) => p.code === 'SEMANTIC_MATCH_INVALID');
  assert.equal(found?.pointer, '/failurePatterns/git-dirty/semanticMatch/1');
  assert.match(found?.message ?? '', /"\/unclosed\(\/" of pattern 'git-dirty' is invalid/);

  const structured = await mutatedCopy(join(AGENTS, 'ungated-closure'), [
    { file: 'steps_registry.json', patch: [{ set: '/entryStepMapping/detect:structured', value: 'triage' }] },
    {
      file: 'agent.json',
      patch: [
        {
          set: '/runner/verdict',
          value: { type: 'detect:structured', config: { signalType: 'triaged', maxIterations: 1 } },
        },
      ],
    },
  ]);
  assert.ok((await codes(structured)).includes('STRUCTURED_SIGNAL_FORMS_UNSUPPORTED'));
});
