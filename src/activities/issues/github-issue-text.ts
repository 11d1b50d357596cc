/**
 * How a GitHub issue becomes the text the agent reads, and how our own comments are
 * marked so a retried write can find them.
 *
 * Issue text is untrusted (anyone may open an issue or comment). We cannot make the
 * model immune to prompt injection, but we remove what a human reader of the issue
 * page does not see: HTML comments, zero-width and bidirectional control characters,
 * and Unicode tag characters (known carriers of hidden instructions). Each comment is
 * quoted under a heading that we write, naming its author and their association with
 * the repository, so a comment cannot pass itself off as another author's text.
 */
import type { GitHubComment } from '../github/github-port.js';

const MARKER_PREFIX = 'issue-agent:';

/** `<!-- issue-agent:<key> -->`: invisible on GitHub, searchable in the comment list. */
export function idempotencyMarker(key: string): string {
  const safe = key
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .replace(/[^A-Za-z0-9._:@/+= -]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
    .replace(/--/g, '-%2D');
  return `<!-- ${MARKER_PREFIX}${safe} -->`;
}

export function withMarker(text: string, key: string): string {
  return `${text.replace(/\s+$/, '')}\n\n${idempotencyMarker(key)}\n`;
}

export function hasMarker(body: string, key: string): boolean {
  return body.includes(idempotencyMarker(key));
}

const HIDDEN_CHARS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/** Removes what GitHub does not display; says so where an HTML comment was. */
export function visibleText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '[hidden HTML comment removed]')
    .replace(HIDDEN_CHARS, '')
    .trim();
}

/** The issue body followed by its comments, oldest first, each quoted under our own heading. */
export function issueTextWithComments(body: string, comments: readonly GitHubComment[]): string {
  const main = visibleText(body) || '(no description)';
  if (comments.length === 0) return main;
  const sections = comments.map((c, i) => {
    const text = visibleText(c.body) || '(empty)';
    const quoted = text
      .split('\n')
      .map((line) => (line === '' ? '>' : `> ${line}`))
      .join('\n');
    return `#### Comment ${i + 1} of ${comments.length} · @${c.author} (${c.authorAssociation}) · ${c.createdAt}\n\n${quoted}`;
  });
  return [
    main,
    '',
    '---',
    '',
    `### Comments on this issue (${comments.length}, oldest first, quoted)`,
    '',
    sections.join('\n\n'),
  ].join('\n');
}
