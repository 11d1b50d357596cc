/**
 * JSON pointers (RFC 6901) as they appear in `$ref` fragments, `outputSchemaRef.schema`
 * and `intentSchemaRef`: `~1` → `/` and `~0` → `~` (in that order, so `~01` stays `~1`),
 * after URI percent-decoding because fragments are URI parts.
 */
import type { JsonValue } from '../../contracts/json.js';

export function parsePointer(pointer: string): string[] {
  const body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (body === '' || body === '/') return body === '/' ? [''] : [];
  if (!body.startsWith('/')) throw new Error(`a JSON pointer must start with '/': '${pointer}'`);
  return body
    .slice(1)
    .split('/')
    .map((segment) => safeDecode(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

export type PointerLookup =
  | { readonly found: true; readonly value: JsonValue }
  | { readonly found: false; readonly missing: string; readonly depth: number };

/** Walks `segments` from `root`; on failure says which segment was missing. */
export function getAtPointer(root: JsonValue, segments: readonly string[]): PointerLookup {
  let current: JsonValue = root;
  for (const [depth, segment] of segments.entries()) {
    const next = child(current, segment);
    if (next === undefined) return { found: false, missing: segment, depth };
    current = next;
  }
  return { found: true, value: current };
}

function child(value: JsonValue, segment: string): JsonValue | undefined {
  if (Array.isArray(value)) return /^(0|[1-9]\d*)$/.test(segment) ? value[Number(segment)] : undefined;
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, segment)) return value[segment];
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
