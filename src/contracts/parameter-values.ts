/**
 * Agent parameter values as a run sees them: the given ones, with each declared
 * parameter's `default` filling a gap (upstream applied defaults in its CLI only, so
 * runs started any other way missed them). Pure: used by the workflow and the CLI.
 */
import type { ParameterSpec } from './definition.js';
import type { JsonValue } from './json.js';

export type ParameterValue = string | number | boolean;

export function withParameterDefaults(
  specs: Readonly<Record<string, ParameterSpec>>,
  given: Readonly<Record<string, ParameterValue>> | undefined,
): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  for (const [key, spec] of Object.entries(specs)) {
    if (spec.default !== undefined) out[key] = scalar(spec.default);
  }
  return { ...out, ...given };
}

/** Arrays and objects become JSON text (a prompt variable is a string). */
export function scalar(value: JsonValue): ParameterValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}
