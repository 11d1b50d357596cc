/**
 * What the delivery texts (PR body, completion and closing comments) say about the tests
 * that failed on the base commit (issue 37): each one still failing that the closure
 * classified as unrelated, with the closure's reason, and the tests the branch fixed. A
 * claim is the agent's word, not the harness's finding: a reviewer must see it to judge
 * it. PURE. The reasons are model text: one line each, and `clean` (the PR body defuses
 * closing keywords with it) applied.
 */
import type { ConditionResult } from '../../contracts/activities.js';
import { baselineAccountOf } from '../../contracts/pre-existing-claims.js';
import { nameList } from '../../contracts/name-list.js';

const MAX_REASON = 400;
/** Fixed tests named in a comment before "(+N more)" (the run's verdict keeps them all). */
const FIXED_SHOWN = 20;

/** Markdown lines (with a heading of the caller's level), or none when nothing failed on the base. */
export function baselineNotes(
  evidence: readonly ConditionResult[],
  heading: string,
  clean: (text: string) => string = (text) => text,
): string[] {
  const account = baselineAccountOf(evidence);
  if (account.unrelated.length === 0 && account.fixed.length === 0) return [];
  const base = account.baseCommit === undefined ? '' : ` \`${account.baseCommit.slice(0, 12)}\``;
  const lines = [heading, ''];
  if (account.unrelated.length > 0) {
    lines.push(
      `Failing on the base commit${base} and still failing, classified by the agent as unrelated to this issue:`,
    );
    for (const u of account.unrelated) lines.push(`- ${inlineCode(u.name)}: ${clean(oneLine(u.reason))}`);
  }
  if (account.fixed.length > 0) {
    if (account.unrelated.length > 0) lines.push('');
    // A base with one broken helper fails dozens of tests: the first ones, then how many more.
    const fixed = nameList(account.fixed.map(inlineCode), FIXED_SHOWN);
    lines.push(`Failing on the base commit${base}, passing now (fixed): ${fixed}`);
  }
  return lines;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line;
}

/** Inline code that survives backticks in a test's name. */
function inlineCode(text: string): string {
  const one = text.replace(/\r?\n/g, ' ');
  return one.includes('`') ? `\`\` ${one} \`\`` : `\`${one}\``;
}
