/**
 * Where a prompt's `{uv-x}` can get its value at run time (upstream `--validate` checks
 * template variables against the same four channels), and the view of a definition the
 * prompt-variable check reads. The workflow's buildPromptVariables and
 * systemPromptInput set these; a test keeps the harness lists equal to what they set.
 *
 * - agent parameters (`parameters` in agent.json): every declared one when the run's
 *   values are not known (`validate`), only those with a value when they are
 *   (`start-run`: given on the command line, or a default);
 * - the harness: HARNESS_STEP_VARIABLES in step prompts, HARNESS_SYSTEM_VARIABLES in
 *   the system prompt;
 * - handoffs: `<stepId>_<key>` (dots kept or turned into `_`) for each step's
 *   `handoffFields`, key = the field's last segment;
 * - `section.*` fragments, as `section_<rest>`;
 * - the step's own `inputs`: `<source stepId with _>_<key>` for `from`, the input's
 *   name for a `default` without `from` (contracts/step-inputs.ts).
 * A handoff name proves only that some step can set it, not that it ran before.
 */
import type { CompletionType } from '../contracts/completion-types.js';
import type { AgentDefinition, ParameterSpec, SectionDefinition, StepDefinition } from '../contracts/definition.js';
import type { StepKind } from '../contracts/intents.js';

/** Set by the run for every step prompt (contracts/step-inputs.ts). */
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

/** A flow step as the check reads it (a loaded step, or one the loader is still checking). */
export type VariableStep = Omit<StepDefinition, 'stepKind'> & { readonly stepKind?: StepKind | undefined };

/** What the prompt-variable check reads of a definition: built from a LoadContext or an AgentDefinition. */
export interface PromptVariableView {
  readonly agentDir: string;
  readonly promptsDir: string;
  readonly c1: string;
  readonly systemPromptPath: string;
  readonly closureAdaptation?: string | undefined;
  readonly parameters: Readonly<Record<string, ParameterSpec>>;
  readonly entryStep: string;
  readonly verdictType: CompletionType;
  readonly steps: ReadonlyMap<string, VariableStep>;
  readonly sections: readonly SectionDefinition[];
}

export function variableViewOf(definition: AgentDefinition): PromptVariableView {
  return {
    agentDir: definition.agentDir,
    promptsDir: definition.promptsDir,
    c1: definition.c1,
    systemPromptPath: definition.systemPromptPath,
    closureAdaptation: definition.closureAdaptation,
    parameters: definition.parameters,
    entryStep: definition.entryStep,
    verdictType: definition.verdict.type,
    steps: new Map(Object.entries(definition.steps)),
    sections: Object.values(definition.sections ?? {}),
  };
}

export function handoffVariables(steps: Iterable<VariableStep>): string[] {
  const names = new Set<string>();
  for (const step of steps) {
    for (const field of step.structuredGate.handoffFields) {
      const key = field.split('.').pop() ?? field;
      names.add(`${step.stepId}_${key}`);
      names.add(`${step.stepId.replace(/\./g, '_')}_${key}`);
    }
  }
  return [...names];
}

/** What a step's own `inputs` add to its prompt's variables. */
export function inputVariables(step: VariableStep): string[] {
  return Object.entries(step.inputs ?? {}).flatMap(([name, spec]) => {
    if (spec.from === undefined) return spec.default === undefined ? [] : [name];
    const dot = spec.from.lastIndexOf('.');
    return [`${spec.from.slice(0, dot).replace(/\./g, '_')}_${spec.from.slice(dot + 1)}`];
  });
}

/**
 * Every name a step prompt can get, but the step's own inputs. `given`: the parameters
 * that have a value in this run (unknown: every declared parameter counts).
 */
export function stepVariableSources(view: PromptVariableView, given?: ReadonlySet<string>): ReadonlySet<string> {
  const parameters = Object.keys(view.parameters).filter((p) => given === undefined || given.has(p));
  return new Set([
    ...parameters,
    ...HARNESS_STEP_VARIABLES,
    ...handoffVariables(view.steps.values()),
    ...view.sections.map((s) => s.variable),
  ]);
}
