/**
 * Validates the raw agent.json and steps_registry.json against our own JSON Schemas
 * (compiled by schema/lazy-ajv.ts strictSchema: every structural problem is reported at
 * once) and turns ajv's errors into Problems whose pointer names the offending value — for a
 * missing property, the property itself rather than its parent.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { strictSchema } from '../schema/lazy-ajv.js';
import { getAtPointer, parsePointer } from '../schema/json-pointer.js';
import type { JsonValue } from '../../contracts/json.js';
import { escapePointerSegment, problem, type Problem } from '../problem.js';
import type { RawAgentFile, RawRegistryFile } from '../load/raw-files.js';
import { AGENT_FILE_SCHEMA } from './agent-file-schema.js';
import { REGISTRY_FILE_SCHEMA } from './registry-file-schema.js';

const validateAgent = strictSchema<RawAgentFile>(AGENT_FILE_SCHEMA);
const validateRegistry = strictSchema<RawRegistryFile>(REGISTRY_FILE_SCHEMA);

export type SchemaCheck<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: Problem[] };

export function checkAgentFile(value: unknown, file: string): SchemaCheck<RawAgentFile> {
  return checkAgainstSchema(validateAgent(), value, file, 'AGENT_SCHEMA');
}

export function checkRegistryFile(value: unknown, file: string): SchemaCheck<RawRegistryFile> {
  return checkAgainstSchema(validateRegistry(), value, file, 'REGISTRY_SCHEMA');
}

/** Runs a compiled schema; every error becomes a Problem with `code` (one per pointer and keyword). */
export function checkAgainstSchema<T>(
  validate: ValidateFunction<T>,
  value: unknown,
  file: string,
  code: string,
): SchemaCheck<T> {
  if (validate(value)) return { ok: true, value };
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of validate.errors ?? []) {
    // propertyNames reports the same bad key twice (inner enum + outer keyword).
    if (error.keyword === 'propertyNames') continue;
    const p = toProblem(error, file, code, value);
    const key = `${p.pointer}|${p.rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(p);
  }
  return { ok: false, problems };
}

/**
 * The offending value as a user would type it, read from the checked document at the
 * error's pointer (ajv's errors carry only the pointer): strings quoted and cut at 60
 * characters, objects and arrays named by their kind.
 */
export function describeValue(root: unknown, instancePath: string): string {
  const found = getAtPointer(root as JsonValue, parsePointer(instancePath));
  if (!found.found) return 'nothing';
  const v = found.value;
  if (Array.isArray(v)) return 'an array';
  if (v !== null && typeof v === 'object') return 'an object';
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}…"` : text;
}

function toProblem(error: ErrorObject, file: string, code: string, root: unknown): Problem {
  const params = error.params as Record<string, unknown>;
  const value = (): string => describeValue(root, error.instancePath);
  const at = (name: unknown): string => `${error.instancePath}/${escapePointerSegment(String(name))}`;
  const base = { code, file, rule: `schema:${error.keyword}` };
  switch (error.keyword) {
    case 'required':
      return problem({
        ...base,
        pointer: at(params.missingProperty),
        expected: `property '${String(params.missingProperty)}'`,
        message: `missing required property '${String(params.missingProperty)}'`,
      });
    case 'additionalProperties':
      return problem({
        ...base,
        pointer: at(params.additionalProperty),
        expected: 'no such property',
        message: `unknown property '${String(params.additionalProperty)}'`,
      });
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      const where = error.propertyName === undefined ? error.instancePath : at(error.propertyName);
      const what = error.propertyName === undefined ? `value ${value()}` : `key '${error.propertyName}'`;
      return problem({ ...base, pointer: where, expected: `one of ${allowed}`, message: `${what} is not allowed` });
    }
    case 'type':
      return problem({
        ...base,
        pointer: error.instancePath,
        expected: `type ${String(params.type)}`,
        message: `wrong type: ${value()}`,
      });
    case 'pattern':
      return problem({
        ...base,
        pointer: error.instancePath,
        expected: `a string matching ${String(params.pattern)}`,
        message: `value ${value()} does not match the pattern`,
      });
    default:
      return problem({
        ...base,
        pointer: error.instancePath,
        expected: describeExpected(error),
        message: withValue(value(), error.message ?? 'invalid value'),
      });
  }
}

/** `value 0: must be >= 1`; a container is not echoed (its kind says nothing new). */
function withValue(value: string, message: string): string {
  return value.startsWith('an ') || value === 'nothing' ? message : `value ${value}: ${message}`;
}

function describeExpected(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if ('limit' in params) return `${error.keyword} ${String(params.limit)}`;
  return `a value satisfying '${error.keyword}'`;
}
