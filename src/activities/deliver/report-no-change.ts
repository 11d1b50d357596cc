/**
 * The issue side of a run that ended with nothing to change (contracts/no-change.ts):
 * a comment with the closure's reason and evidence and the harness's checks, then the
 * needs-human label. Nothing else: no push, pull request, merge or close, and the worktree
 * stays. Each effect looks before it acts (the comment by its idempotency key, the label
 * by the issue's labels), so a retried activity reports 'already-done'.
 *
 * The label is `.agent/config.json` `labels.needsHuman` of the repository (the user's
 * checkout, which the agent cannot write), else `agent:needs-human`. The comment's
 * wording is prompts/comments/no-change.md.
 */
import type { ConditionResult } from '../../contracts/activities.js';
import { DEFAULT_NEEDS_HUMAN_LABEL, type ReportNoChangeInput } from '../../contracts/no-change.js';
import type { BoundaryReport } from '../../contracts/run.js';
import { readRepoConfig } from '../../definition/repo-config/read-repo-config.js';
import type { IssueSourceFactory } from '../issues/issue-source.js';
import { fill, readTemplate } from '../watch/comment-templates.js';
import { already, describeError, done, failed, report, skipped, type Step } from './boundary-steps.js';

export interface ReportNoChangeDeps {
  readonly issueSource: IssueSourceFactory;
  /** Secrets out of model-written text before it is posted. */
  readonly redact: (text: string) => string;
}

const MAX_EVIDENCE_CHARS = 6000;

/** The configured needs-human label; an unreadable config falls back to the default (the run is over). */
export async function needsHumanLabel(repoPath: string): Promise<string> {
  const config = await readRepoConfig(repoPath).catch(() => undefined);
  return config?.labels?.needsHuman ?? DEFAULT_NEEDS_HUMAN_LABEL;
}

export async function noChangeComment(input: ReportNoChangeInput, label: string): Promise<string> {
  const { declaration, baseCommit } = input.unchanged;
  const evidence = declaration.evidence.trim();
  return fill(await readTemplate('no-change'), {
    reason: declaration.reason,
    workflowId: input.workflowId,
    branch: input.branch,
    baseCommit: baseCommit.slice(0, 12),
    label,
    evidence: evidence.length > MAX_EVIDENCE_CHARS ? `${evidence.slice(0, MAX_EVIDENCE_CHARS)}…` : evidence,
    summary: input.summary.trim(),
    checks: checkLines(input.evidence),
  });
}

function checkLines(evidence: readonly ConditionResult[]): string {
  if (evidence.length === 0) return '- (none)';
  return evidence
    .map((r) => `- ${r.passed ? 'passed' : 'FAILED'} \`${r.validator}\`: ${r.summary.split('\n')[0] ?? ''}`)
    .join('\n');
}

export async function reportNoChange(deps: ReportNoChangeDeps, input: ReportNoChangeInput): Promise<BoundaryReport> {
  const issues = deps.issueSource(input.issueSource, input.repoPath);
  const label = await needsHumanLabel(input.repoPath);
  const text = deps.redact(await noChangeComment(input, label));
  const steps: Step[] = [];
  try {
    const commented = await issues.comment(input.issue, text, { idempotencyKey: `${input.workflowId}:no-change` });
    steps.push(
      commented === 'added'
        ? done('comment', `commented the no-change reason on issue #${input.issue}`)
        : already('comment', `the no-change comment is already on issue #${input.issue}`),
    );
  } catch (error) {
    steps.push(failed('comment', describeError(error), `comment on issue #${input.issue} why nothing changed`));
  }
  steps.push(await addLabel(deps, input, label));
  steps.push(skipped('close-issue', 'nothing changed: the issue stays open for a person'));
  return report(steps);
}

async function addLabel(deps: ReportNoChangeDeps, input: ReportNoChangeInput, label: string): Promise<Step> {
  const issues = deps.issueSource(input.issueSource, input.repoPath);
  try {
    const before = (await issues.read(input.issue)).labels;
    if (before.includes(label)) return already('label', `issue #${input.issue} already has ${label}`);
    await issues.relabel(input.issue, { add: [label] });
    return done('label', `added ${label} on issue #${input.issue}`);
  } catch (error) {
    return failed('label', describeError(error), `add the label ${label} to issue #${input.issue}`);
  }
}
