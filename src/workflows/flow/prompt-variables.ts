/**
 * The variables a step prompt can use (`{uv-name}`), from four channels: agent
 * parameters, runtime counters, the issue, and StepContext handoffs; and the step's
 * declared `inputs` read out of the StepContext. Pure.
 */
import type { IssueSnapshot } from '../../contracts/activities.js';
import type { StepInputSpec } from '../../contracts/definition.js';
import type { JsonValue } from '../../contracts/json.js';
import { toPromptValue, toUvVariables, type StepContext } from '../run/state/step-context.js';

export interface PromptVariableInput {
  readonly parameters: Readonly<Record<string, string | number | boolean>>;
  readonly iteration: number;
  readonly maxIterations: number;
  readonly previousSummary: string;
  readonly issue: IssueSnapshot;
  readonly stepContext: StepContext;
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
 * printed "[object Object]"). Pure.
 */
export type InputVariables =
  { readonly ok: true; readonly variables: Record<string, string> } | { readonly ok: false; readonly reason: string };

export function stepInputVariables(
  stepId: string,
  inputs: Readonly<Record<string, StepInputSpec>> | undefined,
  context: StepContext,
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
