/**
 * A step's declared `inputs` (upstream InputSpec): for each `var → { from:
 * "<stepId>.<key>", required, default }`, the value handed off by that step (split at
 * the last dot) under `<stepId with . → _>_<key>`, else its `default`; `required` with
 * neither is an error naming the input. An input without `from` reads nothing and
 * provides its default under its own name. Objects are given as JSON (upstream
 * printed "[object Object]"). Pure.
 */
import type { StepInputSpec } from '../../contracts/definition.js';
import type { JsonValue } from '../../contracts/json.js';
import { toPromptValue, type StepContext } from '../run/state/step-context.js';

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
