/**
 * The API's server-side context editing, offline: a request carrying
 * `context_management.edits` with `clear_tool_uses_20250919` is edited before it is billed
 * (prompt-cache.ts), so a bench can compare it with our own masking. As documented: when
 * the prompt is over `trigger` input tokens (default 100 000), the oldest tool results
 * are replaced by a placeholder, in order, keeping the newest `keep` tool uses (default 3)
 * and any of `exclude_tools`; nothing is cleared unless at least `clear_at_least` tokens
 * would be; `clear_tool_inputs` empties the cleared calls' inputs too. The placeholder's
 * wording is ours (the API's is not documented); everything else is the client's request.
 */
import { estimateTokens } from './request-segments.js';

export const CLEAR_TOOL_USES = 'clear_tool_uses_20250919';
export const CLEARED_PLACEHOLDER = '[tool result cleared by context editing]';

type Block = Record<string, unknown>;
type Message = { role: string; content: unknown };

const isObject = (v: unknown): v is Block => typeof v === 'object' && v !== null && !Array.isArray(v);

function value(setting: unknown, fallback: number): number {
  return isObject(setting) && typeof setting['value'] === 'number' ? setting['value'] : fallback;
}

/** The clear_tool_uses edit of a request body, if it asks for one. */
function clearEdit(body: Block): Block | undefined {
  const management = body['context_management'];
  if (!isObject(management) || !Array.isArray(management['edits'])) return undefined;
  return management['edits'].find((e): e is Block => isObject(e) && e['type'] === CLEAR_TOOL_USES);
}

const chars = (v: unknown): number => JSON.stringify(v ?? '').length;

/** The body the model would see after the API's tool-result clearing (the same object when nothing is cleared). */
export function applyContextEditing(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body['messages'])) return body;
  const edit = clearEdit(body);
  if (edit === undefined) return body;
  const messages = (body['messages'] as Message[]).map((m) => ({
    ...m,
    content: Array.isArray(m.content) ? [...(m.content as Block[])] : m.content,
  }));
  const prompt = estimateTokens(chars(body['system']) + chars(body['tools']) + chars(messages));
  if (prompt <= value(edit['trigger'], 100_000)) return body;
  const excluded = new Set(Array.isArray(edit['exclude_tools']) ? edit['exclude_tools'].map(String) : []);
  const uses: Array<{ id: string; name: string; block: Block }> = [];
  for (const m of messages) {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    for (const b of m.content as Block[])
      if (b['type'] === 'tool_use') uses.push({ id: String(b['id']), name: String(b['name']), block: b });
  }
  const clearable = uses
    .slice(0, Math.max(0, uses.length - value(edit['keep'], 3)))
    .filter((u) => !excluded.has(u.name));
  const ids = new Set(clearable.map((u) => u.id));
  let cleared = 0;
  const edited = messages.map((m) => {
    if (m.role !== 'user' || !Array.isArray(m.content)) return m;
    const content = (m.content as Block[]).map((b) => {
      if (b['type'] !== 'tool_result' || !ids.has(String(b['tool_use_id']))) return b;
      cleared += estimateTokens(chars(b['content'])) - estimateTokens(CLEARED_PLACEHOLDER.length);
      return { ...b, content: CLEARED_PLACEHOLDER };
    });
    return { ...m, content };
  });
  if (cleared <= 0 || cleared < value(edit['clear_at_least'], 0)) return body;
  if (edit['clear_tool_inputs'] === true) {
    for (const m of edited) {
      if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
      m.content = (m.content as Block[]).map((b) =>
        b['type'] === 'tool_use' && ids.has(String(b['id'])) ? { ...b, input: {} } : b,
      );
    }
  }
  return { ...body, messages: edited };
}
