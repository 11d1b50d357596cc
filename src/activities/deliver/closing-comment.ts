/**
 * The comment left on an issue when a run delivers it: how it was delivered (merged,
 * squashed, or kept on a branch with the command that merges it), the run's summary,
 * the tests that failed on the base (the agent's claims, the fixed ones), what the
 * repository should ignore, and the validator evidence, so a reader sees what happened and why.
 */
import type { ConditionResult } from '../../contracts/activities.js';
import { baselineNotes } from './baseline-notes.js';
import { setupAdviceLines } from './setup-advice.js';

export function closingComment(options: {
  workflowId: string;
  branch: string;
  /** False for label-only closure: the run finished, the issue stays open (e.g. a pipeline's agent). */
  closes: boolean;
  /** One sentence: how the work was delivered. */
  delivered?: string;
  summary: string;
  evidence: readonly ConditionResult[];
  /** What the repository should add to `.gitignore` (setup-advice.ts). */
  setupAdvice?: readonly string[];
}): string {
  return [
    `${options.closes ? 'Closed' : 'Completed'} by run \`${options.workflowId}\` (branch \`${options.branch}\`).${options.delivered ? ` ${options.delivered}` : ''}`,
    '',
    options.summary.trim() || '(no summary)',
    ...commentEvidenceLines(options),
  ].join('\n');
}

/**
 * What an issue comment ends with, after its summary: the tests failing on the base, what
 * the repository should ignore, and the completion checks (each part only when there is any).
 */
export function commentEvidenceLines(
  facts: { readonly evidence: readonly ConditionResult[]; readonly setupAdvice?: readonly string[] },
  text: (line: string) => string = (line) => line,
): string[] {
  const lines: string[] = [];
  const notes = baselineNotes(facts.evidence, 'Tests failing on the base commit:');
  if (notes.length > 0) lines.push('', ...notes);
  const advice = setupAdviceLines(facts.setupAdvice, 'For the repository:', text);
  if (advice.length > 0) lines.push('', ...advice);
  if (facts.evidence.length > 0) {
    lines.push('', 'Completion checks:');
    for (const r of facts.evidence)
      lines.push(`- ${r.passed ? 'passed' : 'FAILED'} \`${r.validator}\`: ${r.summary.split('\n')[0] ?? ''}`);
  }
  return lines;
}
