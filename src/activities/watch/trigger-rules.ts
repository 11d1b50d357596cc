/**
 * Who may trigger the agent and what a comment asks for. PURE.
 *
 * - Only authors with write access count: author_association OWNER, MEMBER or
 *   COLLABORATOR (a stranger's mention on a public repository starts nothing).
 * - Bots never trigger (GitHub's `Bot` type or a `[bot]` login), and neither does the
 *   agent itself: every comment it writes carries an `issue-agent:` marker.
 * - `@issue-agent cancel`, `@issue-agent retry <guidance>`, `@issue-agent status` are
 *   commands; any other text after the mention is a request for work (a new run, or a
 *   continuation of a delivered one with the text as guidance).
 * - `/extend 5` (a line of its own) adds $5 to the budget of the live run.
 */
import { CommentCommand } from '../../contracts/watch.js';

export const ALLOWED_ASSOCIATIONS: readonly string[] = ['OWNER', 'MEMBER', 'COLLABORATOR'];
export const AGENT_MARKER = '<!-- issue-agent:';

export interface CommentAuthor {
  readonly author: string;
  readonly authorType: string;
  readonly authorAssociation: string;
  readonly body: string;
}

export function mayTrigger(c: CommentAuthor): boolean {
  if (c.authorType === 'Bot' || /\[bot\]$/i.test(c.author)) return false;
  if (c.body.includes(AGENT_MARKER)) return false;
  return ALLOWED_ASSOCIATIONS.includes(c.authorAssociation.toUpperCase());
}

export type MentionRequest =
  | { readonly kind: 'none' }
  | { readonly kind: 'command'; readonly command: CommentCommand; readonly text: string }
  | { readonly kind: 'work'; readonly text: string };

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a comment body asks of `mention` (e.g. `@issue-agent`), if it mentions it at the start of a word. */
export function parseMention(body: string, mention: string): MentionRequest {
  const re = new RegExp(`(?:^|[^\\w@/-])${escape(mention)}(?![\\w-])([\\s\\S]*)`, 'i');
  const match = re.exec(body);
  if (!match) return { kind: 'none' };
  const rest = (match[1] ?? '').trim();
  const word = /^([a-z]+)\b[ \t]*([\s\S]*)$/i.exec(rest);
  const first = word?.[1]?.toLowerCase();
  switch (first) {
    case CommentCommand.Cancel:
    case CommentCommand.Status:
      return { kind: 'command', command: first, text: (word?.[2] ?? '').trim() };
    case CommentCommand.Retry:
      return { kind: 'command', command: CommentCommand.Retry, text: (word?.[2] ?? '').trim() };
    default:
      return { kind: 'work', text: rest };
  }
}

/** The dollars of a `/extend 5` (or `/extend $2.50`) line, if the comment has one. */
export function parseExtend(body: string): number | undefined {
  const match = /^[ \t]*\/extend[ \t]+\$?(\d{1,6}(?:\.\d{1,4})?)[ \t]*$/im.exec(body);
  const usd = match === null ? Number.NaN : Number(match[1]);
  return Number.isFinite(usd) && usd > 0 ? usd : undefined;
}
