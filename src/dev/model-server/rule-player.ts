/**
 * Plays a session script: picks the first matching rule (honouring `times`) and
 * turns its `respond` into an HTTP answer shaped like the Messages API's.
 */
import type { CacheUsage } from './prompt-cache.js';
import type { RequestView } from './request-view.js';
import { estimateTokens } from './request-segments.js';
import type { RuleRespond, SessionRule, SessionScript } from './session-script.js';

export interface PlannedReply {
  readonly rule: string | null;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** undefined with `reset`: the socket is destroyed instead. */
  readonly body?: unknown;
  /** Sent verbatim instead of `body` (fault mode: a malformed 200). */
  readonly rawBody?: string;
  readonly delayMs: number;
  readonly reset: boolean;
}

const list = (v: string | readonly string[] | undefined): readonly string[] =>
  v === undefined ? [] : typeof v === 'string' ? [v] : v;
const containsAll = (haystack: string, needles: string | readonly string[] | undefined): boolean =>
  list(needles).every((n) => haystack.includes(n));

export function ruleMatches(rule: SessionRule, view: RequestView): boolean {
  const w = rule.when;
  return (
    (w.turn === undefined || w.turn === view.turn) &&
    containsAll(view.prompt, w.promptContains) &&
    containsAll(view.system, w.systemContains) &&
    containsAll(view.lastToolResult, w.lastToolResultContains)
  );
}

/** Deterministic ids, so a replay of the same script produces the same transcript. */
function toolId(ruleId: string, turn: number, index: number): string {
  return `toolu_${ruleId.replace(/[^A-Za-z0-9_-]/g, '_')}_${turn}_${index}`;
}

function messageBody(
  rule: SessionRule,
  respond: RuleRespond,
  view: RequestView,
  script: SessionScript,
  billed: CacheUsage,
): unknown {
  const content: Array<Record<string, unknown>> = [];
  if (respond.text !== undefined) content.push({ type: 'text', text: respond.text });
  if (respond.json !== undefined) content.push({ type: 'text', text: JSON.stringify(respond.json) });
  if (respond.rawText !== undefined) content.push({ type: 'text', text: respond.rawText });
  (respond.toolUse ?? []).forEach((t, i) =>
    content.push({ type: 'tool_use', id: toolId(rule.id, view.turn, i), name: t.name, input: t.input ?? {} }),
  );
  const stopReason = respond.stopReason ?? ((respond.toolUse?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
  const output_tokens = estimateTokens(JSON.stringify(content).length);
  // A rule's own usage (a recorded session: what the real API returned) is the usage;
  // the cache fields it lacks are 0 and its prompt is then billed as uncached input.
  const usage =
    respond.usage === undefined
      ? { ...billed, output_tokens }
      : {
          input_tokens: billed.input_tokens + billed.cache_creation_input_tokens + billed.cache_read_input_tokens,
          output_tokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          ...respond.usage,
        };
  return {
    id: `msg_${rule.id.replace(/[^A-Za-z0-9_-]/g, '_')}_${view.turn}`,
    type: 'message',
    role: 'assistant',
    model: script.model ?? view.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}

export function errorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

export class RulePlayer {
  private readonly used = new Map<string, number>();

  constructor(private readonly script: SessionScript) {}

  reset(): void {
    this.used.clear();
  }

  /** `bill`: the request's prompt as the prompt cache bills it (prompt-cache.ts); called for an answer only. */
  plan(view: RequestView, bill: () => CacheUsage): PlannedReply {
    const rule = this.script.rules.find(
      (r) => (r.times === undefined || (this.used.get(r.id) ?? 0) < r.times) && ruleMatches(r, view),
    );
    if (!rule) {
      // A gap in the script, not an outage: answered as a bad request, so the run fails at
      // once with this text in its reason instead of retrying a 5xx until a test times out.
      const message = `no rule matched: turn=${view.turn}; step prompt starts: ${view.promptTail.slice(0, 600)}`;
      const body = errorBody(
        'invalid_request_error',
        `offline model server, session "${this.script.name}": ${message}`,
      );
      return { rule: null, status: 400, headers: {}, body, delayMs: 0, reset: false };
    }
    this.used.set(rule.id, (this.used.get(rule.id) ?? 0) + 1);
    const r = rule.respond;
    const delayMs = r.delayMs ?? 0;
    if (r.reset) return { rule: rule.id, status: 0, headers: {}, delayMs, reset: true };
    if (r.rawBody !== undefined)
      return { rule: rule.id, status: 200, headers: {}, rawBody: r.rawBody, delayMs, reset: false };
    if (r.error) {
      return {
        rule: rule.id,
        status: r.error.status,
        headers: r.error.headers ?? {},
        body: errorBody(r.error.type, r.error.message),
        delayMs,
        reset: false,
      };
    }
    return {
      rule: rule.id,
      status: 200,
      headers: {},
      body: messageBody(rule, r, view, this.script, bill()),
      delayMs,
      reset: false,
    };
  }
}
