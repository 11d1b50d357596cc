/**
 * `validate`'s proof that every `{uv-x}` a prompt uses will have a value at run time
 * (upstream `--validate` checks template variables against its four channels). A run
 * fails at that step with PROMPT_RESOLUTION when one has none; validate says it first,
 * naming the prompt file and the variable.
 *
 * Where a value can come from (the workflow's buildPromptVariables and
 * systemPromptInput; a test keeps these lists equal to what they set):
 * - agent parameters (`parameters` in agent.json);
 * - the harness: HARNESS_STEP_VARIABLES in step prompts, HARNESS_SYSTEM_VARIABLES in
 *   the system prompt;
 * - handoffs: `<stepId>_<key>` (dots kept or turned into `_`) for each step's
 *   `handoffFields`, key = the field's last segment;
 * - `section.*` fragments, as `section_<rest>`;
 * - the step's own `inputs`: `<source stepId with _>_<key>` for `from`, the input's
 *   name for a `default` without `from` (workflows/flow/declared-inputs.ts).
 * A handoff name proves only that some step can set it, not that it ran before.
 */
import type { AgentDefinition, StepDefinition } from '../contracts/definition.js';
import { AgentError } from '../contracts/errors.js';
import { stepPromptInput, systemPromptInput } from '../contracts/step-inputs.js';
import { loadPromptTemplate } from './c3l/resolve-c3l-prompt.js';
import { placeholderNames } from './c3l/substitute-uv.js';

/** Set by the run for every step prompt (workflows/flow/prompt-variables.ts). */
export const HARNESS_STEP_VARIABLES: readonly string[] = [
  'iteration',
  'max_iterations',
  'remaining',
  'completed_iterations',
  'previous_summary',
  'issue_number',
  'issue_title',
  'agent_name',
  'branch',
];

/** Set by the run for the system prompt (contracts/step-inputs.ts systemPromptInput). */
export const HARNESS_SYSTEM_VARIABLES: readonly string[] = [
  'agent_name',
  'issue_number',
  'branch',
  'repo_instructions',
];

export function handoffVariables(definition: AgentDefinition): string[] {
  const names = new Set<string>();
  for (const step of Object.values(definition.steps)) {
    for (const field of step.structuredGate.handoffFields) {
      const key = field.split('.').pop() ?? field;
      names.add(`${step.stepId}_${key}`);
      names.add(`${step.stepId.replace(/\./g, '_')}_${key}`);
    }
  }
  return [...names];
}

/** What a step's own `inputs` add to its prompt's variables. */
export function inputVariables(step: StepDefinition): string[] {
  return Object.entries(step.inputs ?? {}).flatMap(([name, spec]) => {
    if (spec.from === undefined) return spec.default === undefined ? [] : [name];
    const dot = spec.from.lastIndexOf('.');
    return [`${spec.from.slice(0, dot).replace(/\./g, '_')}_${spec.from.slice(dot + 1)}`];
  });
}

export function stepVariableSources(definition: AgentDefinition): ReadonlySet<string> {
  return new Set([
    ...Object.keys(definition.parameters),
    ...HARNESS_STEP_VARIABLES,
    ...handoffVariables(definition),
    ...Object.values(definition.sections ?? {}).map((s) => s.variable),
  ]);
}

function describe(file: string, name: string, where: string): string {
  return (
    `${file}: {uv-${name}} has no value: it is not ${where}. ` +
    'Declare it as a parameter in agent.json, add a handoffFields entry that sets it, or remove it from the prompt'
  );
}

/** One line per placeholder (or declared uvVariables entry) that nothing will set. */
export async function unboundPromptVariables(definition: AgentDefinition): Promise<string[]> {
  const failures: string[] = [];
  const stepSources = stepVariableSources(definition);
  const stepWhere = 'an agent parameter, a harness variable, a handoff (<stepId>_<key>) or a section';
  const check = async (
    input: Parameters<typeof loadPromptTemplate>[0],
    sources: ReadonlySet<string>,
    where: string,
    declared: readonly string[],
  ): Promise<void> => {
    let template: string;
    let file: string;
    try {
      const loaded = await loadPromptTemplate(input);
      template = loaded.template;
      file = `prompts/${loaded.source}`;
    } catch (error) {
      if (AgentError.isInstance(error)) return; // a missing file is reported by proveResolution
      throw error;
    }
    const names = [...new Set([...placeholderNames(template), ...declared])];
    for (const name of names) if (!sources.has(name)) failures.push(describe(file, name, where));
  };
  await check(
    systemPromptInput(definition, 0, ''),
    new Set(HARNESS_SYSTEM_VARIABLES),
    `one the system prompt gets (${HARNESS_SYSTEM_VARIABLES.join(', ')})`,
    [],
  );
  for (const step of Object.values(definition.steps)) {
    if (step.runner !== undefined) continue;
    const input = { ...stepPromptInput(definition, step, {}), required: [] };
    const { sections: _sections, ...withoutSections } = input;
    const sources = new Set([...stepSources, ...inputVariables(step)]);
    await check(withoutSections, sources, `${stepWhere}, or one of the step's inputs`, step.uvVariables);
  }
  for (const section of Object.values(definition.sections ?? {})) {
    await check(
      {
        agentDir: definition.agentDir,
        promptsDir: definition.promptsDir,
        kind: 'step',
        c1: definition.c1,
        stepId: section.stepId,
        c2: section.c2,
        c3: section.c3,
        edition: section.edition,
        ...(section.adaptation === undefined ? {} : { adaptation: section.adaptation }),
        required: [],
        variables: {},
      },
      stepSources,
      stepWhere,
      section.uvVariables,
    );
  }
  return failures;
}
