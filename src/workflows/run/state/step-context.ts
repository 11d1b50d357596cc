/**
 * StepContext: the handoff data steps pass forward (docs/concepts.md#stepcontext).
 * Each step's handoff is stored under its stepId and exposed to later prompts as
 * `uv-<stepId>_<key>`. Nothing outside a declared handoff reaches a later step.
 * Pure and serialisable: it lives in workflow state and survives crashes by replay.
 */
import type { JsonValue } from '../../../contracts/json.js';

export type Handoff = Readonly<Record<string, JsonValue>>;
export type StepContext = Readonly<Record<string, Handoff>>;

export const EMPTY_STEP_CONTEXT: StepContext = {};

/** Replaces the step's previous handoff (a repeated step reports its latest findings). */
export function recordHandoff(context: StepContext, stepId: string, handoff: Handoff): StepContext {
  if (Object.keys(handoff).length === 0) return context;
  return { ...context, [stepId]: handoff };
}

/** Prompt text for a handoff value: strings as-is, everything else as JSON. */
export function toPromptValue(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Variables for later prompts. Both spellings are provided so that registries written
 * against either convention resolve: `initial.issue_plan` (the seed's `uv-<stepId>_<key>`)
 * and `initial_issue_plan` (dots folded to underscores, as upstream does).
 */
export function toUvVariables(context: StepContext): Record<string, string> {
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
