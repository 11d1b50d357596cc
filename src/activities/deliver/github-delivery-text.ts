/**
 * The texts the GitHub boundary hook writes: the pull request (title, body with the
 * run summary, the tests that failed on the base (baseline-notes.ts) and the validator
 * evidence as a table) and the completion comment on the issue.
 *
 * The summary is model output, and the model read untrusted issue text; a summary
 * saying "fixes #12" would make merging the PR close an unrelated issue. So closing
 * keywords in model-written text are defused, and the one `Closes #<n>` line is ours,
 * written only when the closure action closes the issue.
 */
import type { ConditionResult } from '../../contracts/activities.js';
import type { ClosureAction } from '../../contracts/definition.js';
import { visibleText } from '../issues/github-issue-text.js';
import { baselineNotes } from './baseline-notes.js';
import { setupAdviceLines } from './setup-advice.js';
import { commentEvidenceLines } from './closing-comment.js';

export interface DeliveryFacts {
  readonly workflowId: string;
  readonly issue: number;
  readonly branch: string;
  readonly baseBranch: string;
  readonly closureAction: ClosureAction;
  readonly summary: string;
  readonly evidence: readonly ConditionResult[];
  /** The agent-written setup's `.agent/config.json` snippet (docs/environments/agent-setup.md). */
  readonly environmentSetup?: string;
  /** What the repository should add to `.gitignore` (setup-advice.ts). */
  readonly setupAdvice?: readonly string[];
}

const CLOSING_KEYWORD =
  /\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)(\s*:?\s*)(?=(?:[\w.-]+\/[\w.-]+)?#\d|https?:\/\/\S+\/(?:issues|pull)\/\d)/gi;

export const closesIssue = (action: ClosureAction): boolean => action === 'close' || action === 'label-and-close';

/** "fixes #12" → "fixes issue #12": still readable, no longer a closing reference. */
export function defuseClosingKeywords(text: string): string {
  return text.replace(CLOSING_KEYWORD, (_m, keyword: string) => `${keyword} issue `);
}

export function pullRequestTitle(issueTitle: string, issue: number): string {
  const title = visibleText(issueTitle).replace(/\s+/g, ' ').slice(0, 200) || `Issue ${issue}`;
  return `${title} (#${issue})`;
}

export function pullRequestBody(facts: DeliveryFacts): string {
  const lines = [
    `Work on issue #${facts.issue} by run \`${facts.workflowId}\` (branch \`${facts.branch}\` → \`${facts.baseBranch}\`).`,
    '',
    '## Summary',
    '',
    defuseClosingKeywords(facts.summary.trim()) || '(no summary)',
    '',
    ...withBlankAfter(baselineNotes(facts.evidence, '## Tests failing on the base commit', defuseClosingKeywords)),
    ...withBlankAfter(environmentNotes(facts.environmentSetup)),
    ...withBlankAfter(setupAdviceLines(facts.setupAdvice, '## For the repository', defuseClosingKeywords)),
    '## Completion evidence',
    '',
    ...evidenceTable(facts.evidence),
  ];
  if (closesIssue(facts.closureAction)) lines.push('', `Closes #${facts.issue}`);
  return lines.join('\n');
}

/** The agent-written setup this run was judged with, as the snippet that keeps it. */
function environmentNotes(snippet: string | undefined): string[] {
  if (snippet === undefined) return [];
  let pretty = snippet;
  try {
    pretty = JSON.stringify(JSON.parse(snippet), null, 2);
  } catch {
    // Shown as it came.
  }
  // Model-written commands: a fence longer than any backtick run in them, so none can close it.
  const fence = '`'.repeat(Math.max(3, ...[...pretty.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [
    '## Environment',
    '',
    'No detected setup could run the tests, so the agent wrote one; it was accepted because the tests ran with it (docs/environments/agent-setup.md). Review it, then add it to `.agent/config.json` to keep it:',
    '',
    `${fence}json`,
    pretty,
    fence,
  ];
}

export function evidenceTable(evidence: readonly ConditionResult[]): string[] {
  if (evidence.length === 0) return ['(no completion conditions were configured)'];
  return [
    '| Validator | Result | Command | Exit code | Summary |',
    '| --- | --- | --- | --- | --- |',
    ...evidence.map(
      (r) =>
        `| ${code(r.validator)} | ${r.passed ? 'passed' : 'failed'} | ${r.command ? code(r.command) : '—'} | ${r.exitCode ?? '—'} | ${cell(defuseClosingKeywords(r.summary.split('\n')[0] ?? ''))} |`,
    ),
  ];
}

export function completionComment(facts: DeliveryFacts & { readonly prUrl?: string }): string {
  const delivered = facts.prUrl
    ? `Pull request: ${facts.prUrl}`
    : `Branch \`${facts.branch}\` has no changes to review; no pull request was opened.`;
  return [
    `Run \`${facts.workflowId}\` finished its work on this issue. ${delivered}`,
    '',
    facts.summary.trim() || '(no summary)',
    ...commentEvidenceLines(facts, defuseClosingKeywords),
  ].join('\n');
}

function withBlankAfter(lines: string[]): string[] {
  return lines.length === 0 ? lines : [...lines, ''];
}

/** A table cell: pipes escaped, one line. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim();
}

/** Inline code that survives backticks in the text. */
function code(text: string): string {
  const safe = cell(text);
  return safe.includes('`') ? `\`\` ${safe} \`\`` : `\`${safe}\``;
}
