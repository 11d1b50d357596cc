/**
 * Record mode: turns real request/response pairs into session-script rules. Only the
 * prompt text, turn and the response are kept; API keys and auth headers never reach
 * the file. Rules get `times: 1` so a repeated prompt replays its answers in order.
 *
 * Key: `promptContains` = the first 80 chars of the first user message's LAST text
 * block. In our requests the first block is the issue context, identical across all
 * steps of an issue, so the step prompt is the part that tells requests apart.
 */
import { writeFileSync } from 'node:fs';
import type { RequestView } from './request-view.js';
import type { RuleRespond, SessionRule, SessionScript } from './session-script.js';

const KEPT_ERROR_HEADERS = ['retry-after', 'retry-after-ms'];

function respondFrom(status: number, body: unknown, headers: Headers): RuleRespond {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (status >= 400) {
    const err = (b['error'] ?? {}) as Record<string, unknown>;
    const kept: Record<string, string> = {};
    for (const name of KEPT_ERROR_HEADERS) {
      const v = headers.get(name);
      if (v !== null) kept[name] = v;
    }
    return {
      error: {
        status,
        type: typeof err['type'] === 'string' ? err['type'] : 'api_error',
        message: typeof err['message'] === 'string' ? err['message'] : `HTTP ${status}`,
        ...(Object.keys(kept).length ? { headers: kept } : {}),
      },
    };
  }
  const content = Array.isArray(b['content']) ? (b['content'] as Array<Record<string, unknown>>) : [];
  const text = content
    .flatMap((c) => (c['type'] === 'text' && typeof c['text'] === 'string' ? [c['text']] : []))
    .join('\n');
  const toolUse = content
    .filter((c) => c['type'] === 'tool_use')
    .map((c) => ({ name: String(c['name']), input: c['input'] }));
  const stopReason = typeof b['stop_reason'] === 'string' ? b['stop_reason'] : undefined;
  const usage = (b['usage'] ?? {}) as Record<string, unknown>;
  const numericUsage = Object.fromEntries(Object.entries(usage).filter(([, v]) => typeof v === 'number')) as Record<
    string,
    number
  >;
  const respond: { -readonly [K in keyof RuleRespond]: RuleRespond[K] } = {};
  if (text) {
    let parsed: unknown;
    try {
      parsed = toolUse.length === 0 ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined && typeof parsed === 'object') respond.json = parsed;
    else respond.text = text;
  }
  if (toolUse.length) respond.toolUse = toolUse;
  const defaultStop = toolUse.length ? 'tool_use' : 'end_turn';
  if (stopReason && stopReason !== defaultStop) respond.stopReason = stopReason;
  if (Object.keys(numericUsage).length) respond.usage = numericUsage;
  return respond;
}

export class SessionRecorder {
  private readonly rules: SessionRule[] = [];
  private model: string | undefined;

  constructor(
    private readonly out: string,
    private readonly name: string,
  ) {}

  record(view: RequestView, status: number, body: unknown, headers: Headers): void {
    this.model ??= view.model;
    const key = view.promptTail.slice(0, 80);
    this.rules.push({
      id: `rec-${this.rules.length + 1}`,
      when: { promptContains: key, turn: view.turn },
      times: 1,
      respond: respondFrom(status, body, headers),
    });
    this.flush();
  }

  script(): SessionScript {
    return { name: this.name, ...(this.model ? { model: this.model } : {}), rules: this.rules };
  }

  /** Written after every exchange, so an interrupted recording keeps what it saw. */
  flush(): void {
    writeFileSync(this.out, `${JSON.stringify(this.script(), null, 2)}\n`);
  }
}
