/**
 * structuredSignal (upstream `detect:structured`): complete when the structured output
 * carries the configured signal (`signal` or `type` equal to `signalType`, or
 * `status: "completed"`) AND the `requiredFields` hold: an object maps dot paths to
 * expected values (JSON equality), an array lists dot paths that must be present. PURE.
 */
import type { JsonObject, JsonValue } from '../../contracts/json.js';
import { isJsonObject } from '../../contracts/json.js';
import type { VerdictDecision, VerdictInput } from './verdict-types.js';

export function structuredSignalVerdict(config: JsonObject, input: VerdictInput): VerdictDecision {
  const signalType = typeof config['signalType'] === 'string' ? config['signalType'] : undefined;
  const signalled =
    (signalType !== undefined && (input.output['signal'] === signalType || input.output['type'] === signalType)) ||
    input.output['status'] === 'completed';
  if (!signalled) {
    return {
      done: false,
      reason: `The structured output carries no ${signalType ? `${signalType} ` : ''}signal (signal/type) and no status "completed".`,
    };
  }
  const unmet = unmetRequirements(config['requiredFields'], input.output);
  if (unmet.length > 0)
    return { done: false, reason: `The signal is present but required fields do not hold: ${unmet.join('; ')}.` };
  return {
    done: true,
    reason: `The structured output signalled ${signalType ?? 'completion'} with all required fields.`,
  };
}

function unmetRequirements(required: JsonValue | undefined, output: JsonObject): string[] {
  if (Array.isArray(required)) {
    return required
      .filter((p): p is string => typeof p === 'string')
      .filter((p) => valueAt(output, p) === undefined)
      .map((p) => `${p} is missing`);
  }
  if (isJsonObject(required)) {
    return Object.entries(required)
      .filter(([path, expected]) => canonical(valueAt(output, path)) !== canonical(expected))
      .map(
        ([path, expected]) =>
          `${path} should be ${JSON.stringify(expected)} but is ${JSON.stringify(valueAt(output, path)) ?? 'missing'}`,
      );
  }
  return [];
}

function valueAt(root: JsonObject, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const part of path.split('.')) {
    if (!isJsonObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

/** JSON text with sorted keys, so `{a,b}` equals `{b,a}`. */
function canonical(value: JsonValue | undefined): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isJsonObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
