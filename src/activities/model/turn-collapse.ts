/**
 * Turn collapsing (issue 38, strategy `collapse`): masking (observation-masking.ts) keeps
 * every old turn in the prompt as the model's message, its tool call and a placeholder,
 * ~150 tokens a turn, so a long step's prompt still grows turn by turn. Collapsing takes
 * the old turns out of the conversation altogether: each becomes one line of a digest
 * after the step prompt (what the model noted, what it called, how big the output was;
 * the full output is a file it can read back), ~30 tokens a turn, and the newest
 * `keepToolResults` to `keepToolResults + maskChunk - 1` turns are sent whole.
 *
 * Cache-stable like masking: turns collapse a chunk at a time (by tool results, the way
 * maskedCount counts them), each chunk is its own text block appended to the first user
 * message and never changes after, so the prompt up to the last chunk's block repeats
 * byte for byte until the next chunk. `frontier`, `previousFrontier` and `stableEnd` say
 * where the request builder's breakpoints go, with the meanings of MaskedView.
 *
 * Only plain tool turns collapse: an assistant message followed by a user message of its
 * tool results alone. A turn of any other shape (a reply the harness wrote, a structured
 * output retry) ends what may collapse, so nothing the harness said to the model is lost.
 *
 * The digest's wording is prompts/harness/collapsed-turns.md (the first chunk, which says
 * what the digest is and where the full outputs are) and prompts/harness/collapsed-turn.md
 * (one line per call). Each output goes to the step's artifact store as `turn-<T>-<C>`, so
 * the model can read it back with bash. The same calls always yield the same text (the
 * prompt cache depends on it): the note is the model's own text cut at a fixed length, the
 * sizes are the output's.
 */
import { dirname } from 'node:path';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import { fill, readTemplate } from '../watch/comment-templates.js';
import { HARNESS_TEMPLATES_DIR, describeCall } from './masked-placeholder.js';
import { isToolUse, type LlmContentBlock, type LlmMessage, type LlmToolResultBlock } from './llm-client.js';
import { maskedCount, type BlockAt, type MaskedView, type MaskingPolicy } from './observation-masking.js';

/** One tool call of a collapsed turn: what its digest line may say. */
export interface CollapsedCall {
  /** 1-based turn of the step (the assistant message's place among the step's turns). */
  readonly turn: number;
  /** 0-based call within the turn. */
  readonly call: number;
  /** The model's text of the turn (first call only; empty otherwise). */
  readonly said: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly content: string;
}

/** Writes a chunk's digest block: `first` is true for the first chunk (it explains the digest). */
export type DigestWriter = (calls: readonly CollapsedCall[], first: boolean) => Promise<string>;

interface PlainTurn {
  /** Index of the assistant message. */
  readonly at: number;
  readonly calls: readonly CollapsedCall[];
}

function plainTurns(messages: readonly LlmMessage[]): PlainTurn[] {
  const turns: PlainTurn[] = [];
  for (let at = 1; at + 1 < messages.length; at += 2) {
    const assistant = messages[at]!;
    const user = messages[at + 1]!;
    if (assistant.role !== 'assistant' || user.role !== 'user') break;
    const uses = assistant.content.filter(isToolUse);
    const results = user.content as readonly LlmContentBlock[];
    const plain =
      uses.length > 0 &&
      results.length === uses.length &&
      results.every((b, i) => b.type === 'tool_result' && (b as LlmToolResultBlock).tool_use_id === uses[i]!.id);
    if (!plain) break;
    const said = assistant.content
      .filter((b): b is LlmContentBlock & { text: string } => b.type === 'text' && typeof b['text'] === 'string')
      .map((b) => b.text)
      .join(' ');
    const calls = uses.map((use, call) => {
      const r = results[call] as LlmToolResultBlock;
      return {
        turn: (at + 1) / 2,
        call,
        said: call === 0 ? said : '',
        toolName: use.name,
        input: use.input,
        content: typeof r.content === 'string' ? r.content : JSON.stringify(r.content),
      };
    });
    turns.push({ at, calls });
  }
  return turns;
}

const resultCount = (messages: readonly LlmMessage[]): number =>
  messages.reduce((n, m) => n + (m.role === 'user' ? m.content.filter((b) => b.type === 'tool_result').length : 0), 0);

/** The turns that collapse, in chunks: each chunk's turns end within one chunk of results. */
function chunksOf(turns: readonly PlainTurn[], collapsed: number, chunk: number): PlainTurn[][] {
  const chunks: PlainTurn[][] = [];
  let seen = 0;
  for (const turn of turns) {
    seen += turn.calls.length;
    if (seen > collapsed) break;
    const index = Math.floor((seen - 1) / chunk);
    (chunks[index] ??= []).push(turn);
  }
  return chunks.filter((c) => c !== undefined);
}

/**
 * The messages to send this turn. `digest` must return the same text for the same calls
 * every time (the cache depends on it).
 */
export async function collapseTurns(
  messages: readonly LlmMessage[],
  policy: MaskingPolicy,
  digest: DigestWriter,
): Promise<MaskedView> {
  const chunk = Math.max(1, policy.maskChunk);
  const total = resultCount(messages);
  const newest = messages.at(-1);
  const newestResults = newest?.role === 'user' ? newest.content.filter((b) => b.type === 'tool_result').length : 0;
  const turns = plainTurns(messages);
  const now = chunksOf(turns, maskedCount(total, policy), chunk);
  const before = chunksOf(turns, maskedCount(total - newestResults, policy), chunk).length;
  const nextCollapses = maskedCount(total + 1, policy) > maskedCount(total, policy);
  const head = messages[0];
  if (head === undefined || now.length === 0) {
    const headEnd = head === undefined ? undefined : { message: 0, block: head.content.length - 1 };
    return { messages, ...(nextCollapses && headEnd ? { stableEnd: later(headEnd, previousNewest(messages)) } : {}) };
  }
  const blocks: LlmContentBlock[] = [];
  for (const [i, turnsOfChunk] of now.entries())
    blocks.push({
      type: 'text',
      text: await digest(
        turnsOfChunk.flatMap((t) => t.calls),
        i === 0,
      ),
    });
  const lastCollapsed = now.at(-1)!.at(-1)!;
  const rest = messages.slice(lastCollapsed.at + 2);
  const first = { role: head.role, content: [...head.content, ...blocks] };
  const view = [first, ...rest];
  const frontier = { message: 0, block: first.content.length - 1 };
  const previousFrontier =
    now.length > before && before > 0
      ? { previousFrontier: { message: 0, block: head.content.length + before - 1 } }
      : {};
  if (!nextCollapses) return { messages: view, frontier, ...previousFrontier };
  // The next request appends a chunk to the first message: only it repeats. A request that
  // did not collapse a chunk itself repeats the previous one, whose newest block is cached.
  const stableEnd = now.length > before ? frontier : later(frontier, previousNewest(view));
  return { messages: view, frontier, ...previousFrontier, stableEnd };
}

/** The last block of the user message before the newest one (the previous request's newest block). */
function previousNewest(messages: readonly LlmMessage[]): BlockAt | undefined {
  for (let i = messages.length - 2; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && m.content.length > 0) return { message: i, block: m.content.length - 1 };
  }
  return undefined;
}

function later(a: BlockAt, b: BlockAt | undefined): BlockAt {
  if (b === undefined) return a;
  return b.message > a.message || (b.message === a.message && b.block > a.block) ? b : a;
}

/** How much of the model's note of a turn is kept (~25 tokens). */
export const SAID_CHARS = 100;

function note(said: string): string {
  const line = said.replace(/\s+/g, ' ').trim();
  if (line === '') return '';
  return `${line.length > SAID_CHARS ? `${line.slice(0, SAID_CHARS - 1)}…` : line} → `;
}

export function createCollapsedDigest(
  store: ArtifactStore,
  templatesDir: string = HARNESS_TEMPLATES_DIR,
): DigestWriter {
  let dir: string | undefined;
  const stored = new Map<string, Promise<void>>();
  const keep = (c: CollapsedCall): Promise<void> => {
    const label = `turn-${c.turn}-${c.call}`;
    let done = stored.get(label);
    if (done === undefined) {
      done = store.put(label, c.content).then((ref) => {
        dir ??= dirname(ref.path);
      });
      done.catch(() => stored.delete(label));
      stored.set(label, done);
    }
    return done;
  };
  return async (calls, first) => {
    await Promise.all(calls.map(keep));
    const line = (await readTemplate('collapsed-turn', templatesDir)).trim();
    const lines = calls
      .map((c) =>
        fill(line, {
          turn: String(c.turn),
          call: String(c.call),
          said: note(c.said),
          tool: describeCall(c.toolName, c.input),
          chars: c.content.length.toLocaleString('en-US'),
        }),
      )
      .join('\n');
    if (!first) return lines;
    const header = (await readTemplate('collapsed-turns', templatesDir)).trim();
    return fill(header, { dir: dir ?? '.', lines });
  };
}
