/**
 * `${key}` placeholders in a validator command, filled from the condition's params.
 * PURE. Only keys present in params are replaced, so shell variables such as `${HOME}`
 * in a configured command keep working. Params come from the agent definition (trusted
 * configuration), never from issue text or model output.
 */
import type { JsonValue } from '../../contracts/json.js';

export function substituteParams(command: string, params: Readonly<Record<string, JsonValue>>): string {
  return command.replace(/\$\{([A-Za-z_][\w.-]*)\}/g, (whole, key: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, key)) return whole;
    return paramText(params[key] ?? null);
  });
}

function paramText(value: JsonValue): string {
  if (value === null) return '';
  if (Array.isArray(value)) return value.map(paramText).join(' ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
