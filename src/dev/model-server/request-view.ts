/**
 * What a rule can look at in a Messages API request: the first user message's text,
 * the system prompt, the turn (assistant messages so far) and the last tool result.
 *
 * With the `collapse` context strategy (turn-collapse.ts) the oldest turns are no longer
 * messages but digest lines appended to the first user message, one per call, in the
 * shape of prompts/harness/collapsed-turn.md (`- turn T.C: …`): they count as turns too,
 * and are not the step prompt. A test renders the real template through this view.
 */

export interface RequestView {
  readonly model: string;
  readonly prompt: string;
  /** The last text block of the first user message (the step prompt in our requests). */
  readonly promptTail: string;
  readonly system: string;
  readonly turn: number;
  readonly lastToolResult: string;
}

type Block = Record<string, unknown>;

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter((b): b is Block => typeof b === 'object' && b !== null) : [];
}

/** A digest line of a collapsed turn: `- turn 12.0: …`. */
const DIGEST_LINE = /^- turn (\d+)\.\d+:/gm;

const isDigest = (text: string): boolean => new RegExp(DIGEST_LINE.source, 'm').test(text);

/** The last turn a digest in these texts stands for (0: none). */
function collapsedTurns(promptTexts: readonly string[]): number {
  let last = 0;
  for (const text of promptTexts) for (const m of text.matchAll(DIGEST_LINE)) last = Math.max(last, Number(m[1]));
  return last;
}

function texts(content: unknown): string[] {
  return blocksOf(content).flatMap((b) => (b['type'] === 'text' && typeof b['text'] === 'string' ? [b['text']] : []));
}

export function viewRequest(body: unknown): RequestView {
  const req = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const messages = Array.isArray(req['messages']) ? (req['messages'] as Block[]) : [];
  const firstUser = messages.find((m) => m?.['role'] === 'user');
  const promptTexts = firstUser ? texts(firstUser['content']) : [];
  const stepTexts = promptTexts.filter((t) => !isDigest(t));
  let lastToolResult = '';
  outer: for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = blocksOf(messages[i]?.['content']);
    for (let j = blocks.length - 1; j >= 0; j--) {
      const b = blocks[j];
      if (b?.['type'] === 'tool_result') {
        lastToolResult = typeof b['content'] === 'string' ? b['content'] : texts(b['content']).join('\n');
        break outer;
      }
    }
  }
  return {
    model: typeof req['model'] === 'string' ? req['model'] : 'unknown',
    prompt: promptTexts.join('\n'),
    promptTail: stepTexts[stepTexts.length - 1] ?? '',
    system: typeof req['system'] === 'string' ? req['system'] : texts(req['system']).join('\n'),
    turn: collapsedTurns(promptTexts) + messages.filter((m) => m?.['role'] === 'assistant').length,
    lastToolResult,
  };
}
