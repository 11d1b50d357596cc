/**
 * The issue side of a delivery through an IssueSource (local store or GitHub): the
 * closing comment first (it explains what follows), then the completion labels
 * (label-only / label-and-close), then the close (close / label-and-close). Each looks
 * before it acts, so a re-run after a crash reports 'already-done'.
 */
import type { BoundaryHookInput } from '../../contracts/activities.js';
import type { IssueSource } from '../issues/issue-source.js';
import { already, describeError, done, failed, skipped, type Step } from './boundary-steps.js';
import { closingComment } from './closing-comment.js';

export const labelsApply = (input: BoundaryHookInput): boolean =>
  input.closureAction === 'label-only' || input.closureAction === 'label-and-close';

/** Names of the issue effects, for reporting them skipped when delivery did not happen. */
export function issueEffectNames(input: BoundaryHookInput): string[] {
  return [...(labelsApply(input) ? ['label'] : []), 'close-issue'];
}

export async function applyIssueEffects(
  issues: IssueSource,
  input: BoundaryHookInput,
  delivered: string,
): Promise<Step[]> {
  const text = closingComment({
    workflowId: input.workflowId,
    branch: input.branch,
    closes: input.closureAction !== 'label-only',
    delivered,
    summary: input.summary,
    evidence: input.evidence,
    ...(input.setupAdvice === undefined ? {} : { setupAdvice: input.setupAdvice }),
  });
  const steps: Step[] = [];
  try {
    const commented = await issues.comment(input.issue, text, { idempotencyKey: `${input.workflowId}:close` });
    steps.push(
      commented === 'added'
        ? done('comment', `commented on issue #${input.issue}`)
        : already('comment', `closing comment already on issue #${input.issue}`),
    );
  } catch (error) {
    // The comment explains the close: without it, labels and close wait for a re-run.
    steps.push(failed('comment', describeError(error), `comment on issue #${input.issue}, then label/close it`));
    for (const name of issueEffectNames(input)) steps.push(skipped(name, 'waiting for the closing comment'));
    return steps;
  }
  if (labelsApply(input)) steps.push(await relabel(issues, input));
  switch (input.closureAction) {
    case 'close':
    case 'label-and-close':
      try {
        const closed = await issues.close(input.issue);
        steps.push(
          closed === 'closed'
            ? done('close-issue', `closed issue #${input.issue}`)
            : already('close-issue', `issue #${input.issue} was already closed`),
        );
      } catch (error) {
        steps.push(failed('close-issue', describeError(error), `close issue #${input.issue}`));
      }
      break;
    case 'label-only':
      steps.push(skipped('close-issue', 'closure action is label-only: the issue stays open'));
      break;
  }
  return steps;
}

/** Adds and removes the completion labels; labels to remove that the issue lacks are skipped. */
async function relabel(issues: IssueSource, input: BoundaryHookInput): Promise<Step> {
  const { add, remove } = input.labels;
  if (add.length === 0 && remove.length === 0) return skipped('label', 'no completion labels configured');
  try {
    const before = (await issues.read(input.issue)).labels;
    const after = await issues.relabel(input.issue, { add, remove });
    const added = after.filter((l) => !before.includes(l));
    const removed = before.filter((l) => !after.includes(l));
    if (added.length === 0 && removed.length === 0)
      return already('label', `labels of issue #${input.issue} are already set`);
    const parts = [
      added.length ? `added ${added.join(', ')}` : '',
      removed.length ? `removed ${removed.join(', ')}` : '',
    ].filter(Boolean);
    return done('label', `${parts.join('; ')} on issue #${input.issue}`);
  } catch (error) {
    return failed(
      'label',
      describeError(error),
      `set the labels of issue #${input.issue}: add ${add.join(', ') || '-'}, remove ${remove.join(', ') || '-'}`,
    );
  }
}
