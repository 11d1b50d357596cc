/**
 * A waiting run tells the people on its issue (issue 40): the budget pause says what the
 * run spent, on what, and how to extend; the model's question says how to answer. The
 * workflow sends the values (what it knows); the notice activity fills the template in
 * prompts/comments/ and posts it once (by key). A failed notice is logged and never fails
 * the run: the wait goes on, and `status` and the Web UI show it all the same.
 */
import { isCancellation, log } from '@temporalio/workflow';
import type { AskedQuestion, IssueNoticeInput } from '../../../contracts/human-loop.js';
import type { RunInput, StepRecord } from '../../../contracts/run.js';
import { humanLoopActivities } from '../activity-proxies.js';
import { failureInfo } from '../failure-info.js';

/** The extension the notices and `status` suggest (any amount works). */
export const SUGGESTED_EXTENSION_USD = 5;

/** `- `step`: $0.0123 (2 visits)` per step, most expensive first. PURE. */
export function spendByStep(steps: readonly StepRecord[]): string {
  const by = new Map<string, { cost: number; visits: number }>();
  for (const s of steps) {
    const seen = by.get(s.stepId) ?? { cost: 0, visits: 0 };
    by.set(s.stepId, { cost: seen.cost + s.costUsd, visits: seen.visits + 1 });
  }
  const lines = [...by.entries()]
    .sort((a, b) => b[1].cost - a[1].cost)
    .map(([step, v]) => `- \`${step}\`: $${v.cost.toFixed(4)} (${v.visits} ${v.visits === 1 ? 'visit' : 'visits'})`);
  return lines.length === 0 ? '- (no step finished yet)' : lines.join('\n');
}

/** The command that answers or extends this run, as a person types it. PURE. */
export function controlCommand(input: Pick<RunInput, 'issue'>, verb: 'extend' | 'reply'): string {
  return verb === 'extend'
    ? `issue-agent extend --issue ${input.issue} --usd ${SUGGESTED_EXTENSION_USD}`
    : `issue-agent reply --issue ${input.issue} "your answer"`;
}

/** The question as Markdown: the text, then its choices as a list. PURE. */
export function questionText(question: AskedQuestion): string {
  const choices = (question.choices ?? []).map((c, i) => `${i + 1}. ${c}`);
  return choices.length === 0 ? question.question : `${question.question}\n\n${choices.join('\n')}`;
}

/** Posts (or relabels) on the run's issue; a failure is a log line. */
export async function postNotice(
  input: Pick<RunInput, 'repoPath' | 'issueSource' | 'issue'>,
  notice: Pick<IssueNoticeInput, 'comment' | 'labels'>,
): Promise<void> {
  try {
    await humanLoopActivities.postIssueNotice({
      repoPath: input.repoPath,
      issueSource: input.issueSource,
      issue: input.issue,
      ...notice,
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('could not post the notice on the issue', { error: failureInfo(err).message });
  }
}
