/**
 * Checks of every signal and update payload, at the handler. A payload comes from
 * anyone who can reach the Temporal frontend (an operator, a script, the Web UI) and
 * is `unknown` until checked here: a handler that trips over a bad one fails the
 * workflow task forever, so a bad payload is turned into a reason instead, which the
 * update validators throw and the signal handlers log and record as a run warning.
 */
import type { RunBudget } from '../../contracts/usage.js';
import type { CancelSignalArgs, RetrySignalArgs } from './messages.js';
import { MAX_ANSWER_CHARS, type HumanAnswer } from '../../contracts/human-loop.js';

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** A retry prompt becomes a model message and lands in history: bounded like an issue body. */
export const MAX_RETRY_PROMPT_CHARS = 32_000;
export const MAX_REASON_CHARS = 2_000;

const BUDGET_KEYS = { maxUsd: 'number', maxTokens: 'integer', maxTurnsPerStep: 'integer' } as const;
type BudgetKey = keyof typeof BUDGET_KEYS;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What was sent, short and safe to put in a log line or a warning. */
export function describePayload(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} chars)` : text;
}

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const bad = (reason: string): Checked<never> => ({ ok: false, reason });

function checkArgsObject(args: unknown, what: string): Checked<Record<string, unknown>> {
  if (args === undefined || args === null) return ok({});
  if (!isRecord(args)) return bad(`${what} arguments must be an object, got ${describePayload(args)}`);
  return ok(args);
}

function checkOptionalText(value: unknown, field: string, max: number): Checked<string | undefined> {
  if (value === undefined || value === null) return ok(undefined);
  if (typeof value !== 'string') return bad(`${field} must be a string, got ${describePayload(value)}`);
  if (value.length > max) return bad(`${field} is ${value.length} characters long; the limit is ${max}`);
  return ok(value.trim() === '' ? undefined : value);
}

/** `retry`: `{ prompt?: string }` (or nothing); a blank prompt counts as absent. */
export function checkRetryArgs(args: unknown): Checked<RetrySignalArgs> {
  const obj = checkArgsObject(args, 'retry');
  if (!obj.ok) return obj;
  const prompt = checkOptionalText(obj.value['prompt'], 'retry prompt', MAX_RETRY_PROMPT_CHARS);
  if (!prompt.ok) return prompt;
  return ok(prompt.value === undefined ? {} : { prompt: prompt.value });
}

/** `cancel` (run and batch): `{ reason?: string }` (or nothing). */
export function checkCancelArgs(args: unknown): Checked<CancelSignalArgs> {
  const obj = checkArgsObject(args, 'cancel');
  if (!obj.ok) return obj;
  const reason = checkOptionalText(obj.value['reason'], 'cancel reason', MAX_REASON_CHARS);
  if (!reason.ok) return reason;
  return ok(reason.value === undefined ? {} : { reason: reason.value });
}

function checkLimit(key: BudgetKey, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    return `budget.${key} must be a finite number above 0, got ${describePayload(value)}`;
  if (BUDGET_KEYS[key] === 'integer' && (!Number.isInteger(value) || value > Number.MAX_SAFE_INTEGER))
    return `budget.${key} must be a whole number, got ${describePayload(value)}`;
  return undefined;
}

/**
 * `raiseBudget`: an object with at least one of maxUsd, maxTokens, maxTurnsPerStep,
 * each a finite number above 0 (counts whole). NaN or Infinity would switch a cap off.
 */
export function checkBudgetArgs(args: unknown): Checked<RunBudget> {
  if (!isRecord(args))
    return bad(`raiseBudget expects an object like {"maxTokens": 200000}, got ${describePayload(args)}`);
  const known = Object.keys(BUDGET_KEYS);
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length > 0) return bad(`unknown budget field ${unknown.join(', ')}; expected ${known.join(', ')}`);
  const budget: Record<string, number> = {};
  for (const key of known as BudgetKey[]) {
    if (!(key in args)) continue;
    const problem = checkLimit(key, args[key]);
    if (problem !== undefined) return bad(problem);
    budget[key] = args[key] as number;
  }
  if (Object.keys(budget).length === 0) return bad(`raiseBudget needs at least one of ${known.join(', ')}`);
  return ok(budget as RunBudget);
}

/** Update validator form: throws the reason (Temporal rejects the update; nothing reaches history). */
export function validateBudgetUpdate(args: unknown): void {
  const checked = checkBudgetArgs(args);
  if (!checked.ok) throw new Error(checked.reason);
}

/** `answer`: `{ author: string, text: string }`, both non-blank; the text bounded like a retry prompt. */
export function checkAnswerArgs(args: unknown): Checked<HumanAnswer> {
  if (!isRecord(args)) return bad(`answer expects {"author": "...", "text": "..."}, got ${describePayload(args)}`);
  const author = checkOptionalText(args['author'], 'answer author', 100);
  if (!author.ok) return author;
  const text = checkOptionalText(args['text'], 'answer text', MAX_ANSWER_CHARS);
  if (!text.ok) return text;
  if (author.value === undefined || text.value === undefined) return bad('answer needs a non-blank author and text');
  return ok({ author: author.value.trim(), text: text.value.trim() });
}
