/**
 * Local enforcement of a step's resolved schema (`ResolvedSchema.full`) on structured
 * output. The API's constrained decoding guarantees shape only for what the API form
 * could express; this double-check covers the rest (lengths, ranges, patterns).
 * Compiled validators are cached by schema hash: steps repeat, schemas do not change.
 */
import { createHash } from 'node:crypto';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { newAjv } from './lazy-ajv.js';
import type { JsonObject } from '../../contracts/json.js';

// strict: false because user schemas may carry annotations ajv does not know;
// formats are not validated (no ajv-formats dependency) rather than failing to compile.
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** Compiles (once per distinct schema) a validator for `full`. */
export function compileOutputValidator(full: JsonObject): ValidateFunction {
  const key = createHash('sha256').update(JSON.stringify(full)).digest('hex');
  let validate = compiled.get(key);
  if (!validate) {
    ajv ??= newAjv({ allErrors: true, strict: false, validateFormats: false });
    validate = ajv.compile(full);
    compiled.set(key, validate);
  }
  return validate;
}

/** Validates `value` against `full`; returns readable issues (`/path: message`), empty when valid. */
export function validateOutput(full: JsonObject, value: unknown): string[] {
  const validate = compileOutputValidator(full);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeIssue);
}

function describeIssue(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath || '/';
  switch (error.keyword) {
    case 'required':
      return `${at}: missing required property '${String(params.missingProperty)}'`;
    case 'additionalProperties':
      return `${at}: unexpected property '${String(params.additionalProperty)}'`;
    case 'enum':
      return `${at}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${at}: ${error.message ?? 'invalid'}`;
  }
}
