/**
 * One rule for `validate` and every run's load (issue 37): an unbound `{uv-x}` in a
 * prompt the run reaches from its entry is an error; in a step it never reaches (an
 * upstream registry keeps one flow per verdict type), a warning; a section is an error
 * only when it can apply. `start-run` checks again with its parameter values
 * (assertRunVariablesBound). The agents are the upstream-vocabulary fixture with edits.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAgentDefinition, loadAgentDefinitionOrThrow } from '../../src/definition/load/load-agent-definition.js';
import { assertRunVariablesBound } from '../../src/definition/prompt-variable-check.js';
import { runValidate } from '../../src/definition/validate-command.js';
import { AgentError } from '../../src/contracts/errors.js';
import { copyFixture, editJson, writeText } from './temp-dirs.js';
import { OTHER_PROMPT, twoFlowAgent, WORK_PROMPT } from './two-flow-agent.js';

const unbound = (problems: readonly { code: string; file: string; message: string }[]) =>
  problems
    .filter((p) => p.code === 'PROMPT_VARIABLE_UNBOUND')
    .map((p) => `${p.file} ${/\{uv-([^}]+)\}/.exec(p.message)?.[1] ?? '?'}`);

test('an unbound variable in a step the run never reaches is a warning for validate and the load', async () => {
  const dir = twoFlowAgent();
  const result = await loadAgentDefinition(dir);
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.problems));
  assert.deepEqual(unbound(result.warnings), [`${OTHER_PROMPT} ticket_url`]);
  const warned = result.warnings.find((w) => w.code === 'PROMPT_VARIABLE_UNBOUND');
  assert.equal(warned?.severity, 'warning');
  assert.match(
    warned?.message ?? '',
    /^step 'continuation\.other' uses \{uv-ticket_url\}.*never reaches this step from its entry 'initial\.work'/,
  );
  const { exitCode, text } = await runValidate(dir);
  assert.equal(exitCode, 0, text);
  assert.match(text, /warning prompts\/steps\/continuation\/other\/f_default\.md#: PROMPT_VARIABLE_UNBOUND/);
});

test('the same variable in a step the run reaches is an error for both, naming the step, the file and the variable', async () => {
  const dir = twoFlowAgent();
  writeText(dir, WORK_PROMPT, 'Continue {uv-topic}; see {uv-ticket_url}.\n');
  const result = await loadAgentDefinition(dir);
  assert.equal(result.ok, false);
  const errors = result.ok ? [] : result.problems;
  assert.deepEqual(unbound(errors), [`${WORK_PROMPT} ticket_url`]);
  assert.match(
    errors[0]?.message ?? '',
    /^step 'continuation\.work' uses \{uv-ticket_url\}.*reaches this step from its entry 'initial\.work'/,
  );
  // The other flow's step stays a warning.
  assert.deepEqual(unbound(result.warnings), [`${OTHER_PROMPT} ticket_url`]);
  const { exitCode, text } = await runValidate(dir);
  assert.equal(exitCode, 2, text);
  assert.match(
    text,
    /error {3}prompts\/steps\/continuation\/work\/f_default\.md#: PROMPT_VARIABLE_UNBOUND step 'continuation\.work'/,
  );
});

test('the entry follows the verdict type: under count:iteration the other flow is the one that must bind', async () => {
  const dir = twoFlowAgent();
  editJson(dir, 'agent.json', (a) => {
    a.runner.verdict = { type: 'count:iteration', config: { maxIterations: 3 } };
  });
  const result = await loadAgentDefinition(dir);
  assert.equal(result.ok, false);
  assert.deepEqual(unbound(result.ok ? [] : result.problems), [`${OTHER_PROMPT} ticket_url`]);
});

test('a declared uvVariables name counts like a placeholder; a step input binds its own name only', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    r.steps['closure.done'].uvVariables = ['plan'];
  });
  // continuation.work has input `plan`; closure.done does not: its declared `plan` has no value.
  const result = await loadAgentDefinition(dir);
  assert.equal(result.ok, false);
  assert.deepEqual(unbound(result.ok ? [] : result.problems), ['prompts/steps/closure/done/f_default.md plan']);
});

test('a section is an error only when it can apply; one whose uvVariables never have a value is a warning', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    r.steps['section.context'] = {
      stepId: 'section.context',
      c2: 'section',
      c3: 'context',
      edition: 'default',
      uvVariables: ['project_title'],
    };
  });
  writeText(dir, 'prompts/steps/section/context/f_default.md', 'Project {uv-project_title} ({uv-project_number}).\n');
  const never = await loadAgentDefinition(dir);
  assert.ok(never.ok, never.ok ? '' : JSON.stringify(never.problems));
  assert.deepEqual(unbound(never.warnings).sort(), [
    'prompts/steps/section/context/f_default.md project_number',
    'prompts/steps/section/context/f_default.md project_title',
  ]);
  // Once project_title is a parameter the section applies, and project_number breaks every step prompt.
  editJson(dir, 'agent.json', (a) => {
    a.parameters.project_title = { type: 'string', description: 'Project', required: false, cli: '--project-title' };
  });
  const applies = await loadAgentDefinition(dir);
  assert.equal(applies.ok, false);
  const errors = applies.ok ? [] : applies.problems;
  assert.deepEqual(unbound(errors), ['prompts/steps/section/context/f_default.md project_number']);
  assert.match(errors[0]?.message ?? '', /^section 'section\.context' uses \{uv-project_number\}.*the section applies/);
});

test("start-run's check: a reachable prompt using an optional parameter this run has no value for is refused", async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'agent.json', (a) => {
    a.parameters.ticket = { type: 'string', description: 'Ticket', required: false, cli: '--ticket' };
  });
  writeText(dir, WORK_PROMPT, 'Continue {uv-topic} for ticket {uv-ticket}.\n');
  const definition = await loadAgentDefinitionOrThrow(dir);
  await assert.rejects(assertRunVariablesBound(definition, { topic: 't' }), (e: unknown) => {
    assert.ok(AgentError.isInstance(e));
    assert.equal(e.code, 'CONFIG_INVALID');
    assert.match(
      e.message,
      /continuation\/work\/f_default\.md#: PROMPT_VARIABLE_UNBOUND step 'continuation\.work' uses \{uv-ticket\}/,
    );
    assert.match(
      e.message,
      /agent parameter 'ticket' has no value in this run: give --ticket VALUE or --param ticket=VALUE/,
    );
    return true;
  });
  await assertRunVariablesBound(definition, { topic: 't', ticket: 'T-1' });
});
