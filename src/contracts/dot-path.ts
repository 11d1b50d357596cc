/**
 * Dot-path access into structured output (`next_action.action`, `items.0.name`).
 * Numeric segments index arrays. Pure: used by the gate inside workflow code.
 */
import type { JsonValue } from './json.js';

export function getAtPath(value: JsonValue | undefined, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const segment of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) {
      const index = Number(segment);
      current = Number.isInteger(index) ? current[index] : undefined;
    } else if (typeof current === 'object') {
      current = Object.prototype.hasOwnProperty.call(current, segment) ? current[segment] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

export function lastSegment(path: string): string {
  const parts = path.split('.');
  return parts[parts.length - 1] ?? path;
}
