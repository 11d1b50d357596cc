/**
 * Decides what follows one model reply, by `stop_reason`: run tools, continue a
 * paused turn, ask once for a shorter reply after `max_tokens`, ask once for a
 * repaired answer after an invalid one, finish, or fail with a typed error.
 *
 * The final answer is parsed and checked against the step's FULL schema here.
 * Structured outputs constrain the shape with the API subset of the schema only, so
 * the local ajv check stays the source of truth. `validateStructuredOutput` is the
 * one seam to swap for the shared configuration validator later.
 */
import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { newAjv, newAjv2020 } from '../../definition/schema/lazy-ajv.js';
import { isJsonObject, type JsonObject } from '../../contracts/json.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { isToolUse, textOf, type LlmContentBlock, type LlmResponse } from './llm-client.js';

export type TurnOutcome =
  | { readonly kind: 'tools'; readonly calls: ReadonlyArray<{ id: string; name: string; input: unknown }> }
  | { readonly kind: 'continue' }
  | { readonly kind: 'reply'; readonly content: readonly LlmContentBlock[] }
  | { readonly kind: 'done'; readonly output: JsonObject };

export interface OutcomeCounters {
  repairs: number;
  continuations: number;
}

const CUT_OFF_NOTE =
  'Your reply was cut off by the max_tokens limit. Reply again more concisely: either one tool call or only the final JSON answer.';
const CUT_OFF_TOOL_NOTE =
  'Error: your tool call was cut off by the max_tokens limit and was not run. Issue it again, shorter.';

function repairNote(issues: readonly string[]): string {
  return `Your final answer was rejected. Problems:\n${issues.map((i) => `- ${i}`).join('\n')}\nReply with only the corrected JSON object that satisfies the step's output schema.`;
}

export function decideOutcome(
  response: Pick<LlmResponse, 'content' | 'stop_reason'>,
  schema: Readonly<Record<string, unknown>>,
  counters: OutcomeCounters,
): TurnOutcome {
  const toolUses = response.content.filter(isToolUse);
  switch (response.stop_reason) {
    case 'refusal':
      throw new AgentError(
        FailureType.ModelRefusal,
        'the model refused to continue this step; review the issue text and the step prompt',
        {
          details: { stopReason: 'refusal' },
        },
      );
    case 'model_context_window_exceeded':
      throw new AgentError(
        FailureType.ModelContextExceeded,
        "the conversation exceeded the model's context window; split the step or reduce tool output",
        {
          details: { stopReason: 'model_context_window_exceeded' },
        },
      );
    case 'pause_turn':
      return { kind: 'continue' };
    case 'max_tokens': {
      if (counters.continuations >= 1) {
        throw new AgentError(
          FailureType.StructuredOutputInvalid,
          'the model hit max_tokens twice without a complete answer; raise model.maxTokens in the agent definition',
          {
            where: 'model.maxTokens',
            details: { stopReason: 'max_tokens' },
          },
        );
      }
      counters.continuations += 1;
      // Every tool_use needs a tool_result in the next user message, even a truncated one.
      const content: LlmContentBlock[] =
        toolUses.length > 0
          ? toolUses.map((t) => ({
              type: 'tool_result',
              tool_use_id: t.id,
              content: CUT_OFF_TOOL_NOTE,
              is_error: true,
            }))
          : [{ type: 'text', text: CUT_OFF_NOTE }];
      return { kind: 'reply', content };
    }
    default:
      break;
  }
  if (toolUses.length > 0)
    return { kind: 'tools', calls: toolUses.map((t) => ({ id: t.id, name: t.name, input: t.input })) };

  const checked = checkFinalAnswer(textOf(response.content), schema);
  if (checked.ok) return { kind: 'done', output: checked.value };
  if (counters.repairs >= 1) {
    throw new AgentError(
      FailureType.StructuredOutputInvalid,
      `the final answer is still invalid after one repair turn: ${checked.issues.slice(0, 5).join('; ')}`,
      {
        expected: "a JSON object valid against the step's output schema",
        details: { issues: checked.issues.slice(0, 20) },
      },
    );
  }
  counters.repairs += 1;
  return { kind: 'reply', content: [{ type: 'text', text: repairNote(checked.issues.slice(0, 20)) }] };
}

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
