/**
 * What a step's prompt and schema activities are asked, built in one place: the workflow
 * and the benchmark's in-process baseline (scripts/bench) must ask for exactly the same.
 * Pure. The variables a step prompt can use (`{uv-name}`) come from four channels: agent
 * parameters, runtime counters, the issue, and StepContext handoffs; the step's declared
 * `inputs` are read out of the StepContext. Then the prompt input (which template, with
 * those variables), the schema input, and what is added to the resolved text (operator
 * guidance, a verdict's retry addendum).
 */
import type { IssueSnapshot, ResolvePromptInput, ResolveSchemaInput } from './activities.js';
import type { AgentDefinition, DefinitionSnapshotRef, StepDefinition, StepInputSpec } from './definition.js';
import type { JsonValue } from './json.js';

/** The StepContext (workflows/run/state/run-state.ts): each step's handoff under its stepId. */
type Handoffs = Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;

/** Prompt text for a handoff value: strings as-is, everything else as JSON. */
export function toPromptValue(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Handoffs as prompt variables. Both spellings are provided so that registries written
 * against either convention resolve: `initial.issue_plan` (the seed's `uv-<stepId>_<key>`)
 * and `initial_issue_plan` (dots folded to underscores, as upstream does).
 */
export function toUvVariables(context: Handoffs): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [stepId, handoff] of Object.entries(context)) {
    for (const [key, value] of Object.entries(handoff)) {
      const text = toPromptValue(value);
      variables[`${stepId}_${key}`] = text;
      variables[`${stepId.replace(/\./g, '_')}_${key}`] = text;
    }
  }
  return variables;
}

export interface PromptVariableInput {
  readonly parameters: Readonly<Record<string, string | number | boolean>>;
  readonly iteration: number;
  readonly maxIterations: number;
  readonly previousSummary: string;
  readonly issue: IssueSnapshot;
  readonly stepContext: Handoffs;
  readonly agentName: string;
  readonly branch: string;
}

export function buildPromptVariables(input: PromptVariableInput): Record<string, string> {
  const variables: Record<string, string> = {};
  // Handoffs first: on a name clash, parameters and runtime values win (upstream rule).
  Object.assign(variables, toUvVariables(input.stepContext));
  Object.assign(variables, {
    iteration: String(input.iteration),
    max_iterations: String(input.maxIterations),
    remaining: String(Math.max(0, input.maxIterations - input.iteration)),
    completed_iterations: String(Math.max(0, input.iteration - 1)),
    previous_summary: input.previousSummary,
    issue_number: String(input.issue.number),
    issue_title: input.issue.title,
    agent_name: input.agentName,
    branch: input.branch,
  });
  for (const [key, value] of Object.entries(input.parameters)) variables[key] = String(value);
  return variables;
}

/**
 * The issue as data: number, title, labels and body. The queryStep activity quotes it once,
 * inside delimiters whose closing tag it escapes (activities/model/request-builder.ts),
 * as its own block of the first user message: part of every turn's cached prefix.
 */
export function formatIssueContext(issue: IssueSnapshot): string {
  return [
    `Issue #${issue.number}: ${issue.title}`,
    `Labels: ${issue.labels.join(', ') || '(none)'}`,
    '',
    issue.body,
  ].join('\n');
}

/**
 * A step's declared `inputs` (upstream InputSpec): for each `var → { from:
 * "<stepId>.<key>", required, default }`, the value handed off by that step (split at
 * the last dot) under `<stepId with . → _>_<key>`, else its `default`; `required` with
 * neither is an error naming the input. An input without `from` reads nothing and
 * provides its default under its own name. Objects are given as JSON (upstream
 * printed "[object Object]").
 */
export type InputVariables =
  { readonly ok: true; readonly variables: Record<string, string> } | { readonly ok: false; readonly reason: string };

export function stepInputVariables(
  stepId: string,
  inputs: Readonly<Record<string, StepInputSpec>> | undefined,
  context: Handoffs,
): InputVariables {
  const variables: Record<string, string> = {};
  for (const [name, spec] of Object.entries(inputs ?? {})) {
    if (spec.from === undefined) {
      if (spec.default !== undefined) variables[name] = toPromptValue(spec.default);
      continue;
    }
    const dot = spec.from.lastIndexOf('.');
    const source = spec.from.slice(0, dot);
    const key = spec.from.slice(dot + 1);
    const handed: JsonValue | undefined = context[source]?.[key];
    const value = handed ?? spec.default;
    if (value === undefined) {
      if (spec.required) {
        return {
          ok: false,
          reason: `step "${stepId}": required input '${name}' (from ${spec.from}) has no value: step '${source}' has not handed off '${key}' and no default is declared`,
        };
      }
      continue;
    }
    variables[`${source.replace(/\./g, '_')}_${key}`] = toPromptValue(value);
  }
  return { ok: true, variables };
}

/**
 * The system prompt: identical for every step of a run (a cached prefix). The
 * repository's own instructions (AGENTS.md, CLAUDE.md) are `{uv-repo_instructions}`,
 * empty when it has none.
 */
export function systemPromptInput(
  definition: AgentDefinition,
  issue: number,
  branch: string,
  repoInstructions = '',
): ResolvePromptInput {
  return {
    agentDir: definition.agentDir,
    promptsDir: definition.promptsDir,
    kind: 'system',
    c1: definition.c1,
    systemPromptPath: definition.systemPromptPath,
    required: [],
    variables: {
      agent_name: definition.name,
      issue_number: String(issue),
      branch,
      repo_instructions: repoInstructions,
    },
    ...snapshotOf(definition),
  };
}

/** The run's definition snapshot, for every input that reads a definition file. */
export function snapshotOf(definition: AgentDefinition): { snapshot?: DefinitionSnapshotRef } {
  return definition.snapshot === undefined ? {} : { snapshot: definition.snapshot };
}

export function stepPromptInput(
  definition: AgentDefinition,
  step: StepDefinition,
  variables: Readonly<Record<string, string>>,
): ResolvePromptInput {
  return {
    agentDir: definition.agentDir,
    promptsDir: definition.promptsDir,
    kind: 'step',
    c1: definition.c1,
    stepId: step.stepId,
    c2: step.c2,
    c3: step.c3,
    edition: step.edition,
    ...adaptationOf(definition, step),
    required: step.uvVariables,
    variables,
    ...(definition.sections === undefined ? {} : { sections: Object.values(definition.sections) }),
    ...snapshotOf(definition),
  };
}

/**
 * The step's own adaptation; else, for a closure step, the one `defaultClosureAction`
 * selects (upstream closure-adapter: `f_<edition>_label-only.md`, falling back to
 * `f_<edition>.md` when the agent ships no such variant).
 */
export function adaptationOf(
  definition: Pick<AgentDefinition, 'closureAdaptation'>,
  step: Pick<StepDefinition, 'adaptation'> & { readonly stepKind?: StepDefinition['stepKind'] | undefined },
): { adaptation?: string } {
  if (step.adaptation !== undefined) return { adaptation: step.adaptation };
  if (step.stepKind === 'closure' && definition.closureAdaptation !== undefined) {
    return { adaptation: definition.closureAdaptation };
  }
  return {};
}

export function stepSchemaInput(definition: AgentDefinition, step: StepDefinition): ResolveSchemaInput {
  return {
    schemasDir: definition.schemasDir,
    stepId: step.stepId,
    file: step.outputSchemaRef.file,
    schema: step.outputSchemaRef.schema,
    ...(step.outputSchemaRef.inline === undefined ? {} : { inline: step.outputSchemaRef.inline }),
    ...snapshotOf(definition),
  };
}

/** Operator guidance adds to a step prompt (the workflow and the step activity both use this). */
export function withOperatorGuidance(text: string, guidance: string | undefined): string {
  return guidance === undefined ? text : `${text}\n\n<operator_guidance>\n${guidance}\n</operator_guidance>`;
}

/** A verdict's retry prompt adds to the step's own prompt (the workflow and the step activity both use this). */
export function withRetryAddendum(text: string, addendum: string | undefined): string {
  return addendum === undefined ? text : `${text}\n\n${addendum}`;
}
