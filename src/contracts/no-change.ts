/**
 * The no-op guard's vocabulary (issue 37). A run whose branch has no change against its
 * base never ends as success and never closes its issue: the `branch-changed` completion
 * condition fails, and the retry prompt says nothing changed. The closure may instead
 * declare, in its structured output, that no change is needed:
 *
 *   "no_change": { "reason": "already-fixed" | "cannot-reproduce" | "not-a-bug", "evidence": "..." }
 *
 * When the harness confirms the branch truly has no change, the run makes no delivery
 * effect: it comments the reason and evidence on the issue, labels it for a human, leaves
 * it open and ends with the `no-change` outcome. A declaration on a branch that has changes
 * is refused (a failed condition): the run never delivers work it says is not needed.
 * PURE.
 */
import type { ConditionResult } from './validation.js';
import { isJsonObject, type JsonObject } from './json.js';
import type { IssueSourceKind } from './run.js';

/** The closure output's field (snake_case, as the closure schema's other fields). */
export const NO_CHANGE_FIELD = 'no_change';

export const NoChangeReason = {
  AlreadyFixed: 'already-fixed',
  CannotReproduce: 'cannot-reproduce',
  NotABug: 'not-a-bug',
} as const;
export type NoChangeReason = (typeof NoChangeReason)[keyof typeof NoChangeReason];

export const NO_CHANGE_REASONS: readonly NoChangeReason[] = Object.values(NoChangeReason);

export interface NoChangeDeclaration {
  readonly reason: NoChangeReason;
  /** What the model ran and saw (commands, output); shown on the issue. */
  readonly evidence: string;
}

/** The label a no-change run puts on its issue unless `.agent/config.json` `labels.needsHuman` names another. */
export const DEFAULT_NEEDS_HUMAN_LABEL = 'agent:needs-human';

/** The `branch-changed` condition's failure pattern (and retry prompt adaptation). */
export const NO_CHANGE_PATTERN = 'no-change';

/**
 * The declaration in a closure's output, or undefined when there is none or it is not
 * well formed (an unknown reason, no evidence). The agent's schema checks it first where
 * it declares the field (the default agent's does); this reader never trusts it.
 */
export function noChangeDeclarationOf(output: JsonObject): NoChangeDeclaration | undefined {
  const value = output[NO_CHANGE_FIELD];
  if (!isJsonObject(value)) return undefined;
  const reason = value['reason'];
  const evidence = value['evidence'];
  if (typeof reason !== 'string' || !(NO_CHANGE_REASONS as readonly string[]).includes(reason)) return undefined;
  if (typeof evidence !== 'string' || evidence.trim() === '') return undefined;
  return { reason: reason as NoChangeReason, evidence };
}

/** What the harness confirmed: the branch has no change against this base, and the closure said so. */
export interface UnchangedBranch {
  readonly declaration: NoChangeDeclaration;
  readonly baseCommit: string;
}

/** The issue side of a no-change run: a comment and a label; never a push, a PR, a merge or a close. */
export interface ReportNoChangeInput {
  readonly workflowId: string;
  readonly issueSource: IssueSourceKind;
  readonly repoPath: string;
  readonly issue: number;
  readonly branch: string;
  readonly unchanged: UnchangedBranch;
  /** The completion conditions the harness ran at this closing. */
  readonly evidence: readonly ConditionResult[];
  readonly summary: string;
}
