/**
 * Parses the model's final answer and checks it against the step's FULL schema.
 * Structured outputs constrain the shape with the API subset of the schema only, so
 * the local ajv check stays the source of truth. `validateStructuredOutput` is the
 * one seam to swap for the shared configuration validator later.
 */
import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { newAjv, newAjv2020 } from '../../definition/schema/lazy-ajv.js';
import { isJsonObject, type JsonObject } from '../../contracts/json.js';

const compiled = new WeakMap<object, ValidateFunction>();
/** By content too: every run resolves its own schema objects, compiling costs ~10 ms of worker CPU. */
const compiledByContent = new Map<string, ValidateFunction>();

function compile(schema: Readonly<Record<string, unknown>>): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const key = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
  const same = compiledByContent.get(key);
  if (same) {
    compiled.set(schema, same);
    return same;
  }
  const options = { allErrors: true, strict: false, validateFormats: false, logger: false } as const;
  const draft2020 = typeof schema['$schema'] === 'string' && schema['$schema'].includes('2020-12');
  // A fresh instance per schema: a schema's `$id` may be registered only once per instance.
  const ajv = draft2020 ? newAjv2020(options) : newAjv(options);
  const validate = ajv.compile(schema as object);
  compiled.set(schema, validate);
  if (compiledByContent.size >= 256) compiledByContent.clear();
  compiledByContent.set(key, validate);
  return validate;
}

/** Human-readable issues (`/pointer message`), empty when valid. */
export function validateStructuredOutput(schema: Readonly<Record<string, unknown>>, value: unknown): string[] {
  let validate: ValidateFunction;
  try {
    validate = compile(schema);
  } catch (error) {
    return [`the step schema cannot be compiled: ${(error as Error).message}`];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => {
    const at = e.instancePath === '' ? '/' : e.instancePath;
    const params = e.params as Record<string, unknown>;
    const extra =
      'allowedValues' in params
        ? `: ${JSON.stringify(params['allowedValues'])}`
        : 'additionalProperty' in params
          ? `: ${JSON.stringify(params['additionalProperty'])}`
          : '';
    return `${at} ${e.message ?? 'is invalid'}${extra}`;
  });
}

export type ParsedAnswer =
  { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly issues: string[] };

/** Accepts bare JSON or JSON inside a ```json fence (some replies still add one). */
export function parseFinalAnswer(text: string): { ok: true; value: unknown } | { ok: false; issue: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, issue: 'the final answer is empty; it must be a single JSON object' };
  const candidates = [trimmed];
  const fences = [...trimmed.matchAll(/```(?:json|JSON)?\s*\n([\s\S]*?)\n?```/g)].map((m) => m[1] ?? '');
  candidates.push(...fences.reverse());
  // Prose around a bare object ("Done. {...}"): try the outermost braces last.
  const open = trimmed.indexOf('{');
  const close = trimmed.lastIndexOf('}');
  if (open > 0 && close > open) candidates.push(trimmed.slice(open, close + 1));
  let lastError = '';
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (error) {
      lastError = (error as Error).message;
    }
  }
  return { ok: false, issue: `the final answer is not valid JSON (${lastError}); reply with only the JSON object` };
}

export function checkFinalAnswer(text: string, schema: Readonly<Record<string, unknown>>): ParsedAnswer {
  const parsed = parseFinalAnswer(text);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  if (!isJsonObject(parsed.value)) return { ok: false, issues: ['/ the final answer must be a JSON object'] };
  const issues = validateStructuredOutput(schema, parsed.value);
  return issues.length === 0 ? { ok: true, value: parsed.value } : { ok: false, issues };
}
