/**
 * The IssueSource port: where issues live (the local Markdown store by default, or
 * GitHub). Every write is idempotent so a retried activity or a re-run boundary hook
 * never closes, labels or comments twice.
 */
import type { IssueSnapshot } from '../../contracts/activities.js';
import type { IssueSourceKind } from '../../contracts/run.js';

export interface IssueListFilter {
  readonly label?: string;
  readonly state?: 'open' | 'closed';
  /** Free text: GitHub's issue search syntax; the local store matches it case-insensitively in title and body. */
  readonly query?: string;
}

export interface LabelChange {
  readonly add?: readonly string[];
  readonly remove?: readonly string[];
}

export const CommentOutcome = { Added: 'added', AlreadyPresent: 'already-present' } as const;
export type CommentOutcome = (typeof CommentOutcome)[keyof typeof CommentOutcome];

export const CloseOutcome = { Closed: 'closed', AlreadyClosed: 'already-closed' } as const;
export type CloseOutcome = (typeof CloseOutcome)[keyof typeof CloseOutcome];

export interface IssueSource {
  /** Throws AgentError ISSUE_NOT_FOUND when the issue does not exist. */
  read(issue: number): Promise<IssueSnapshot>;
  list(filter?: IssueListFilter): Promise<IssueSnapshot[]>;
  close(issue: number): Promise<CloseOutcome>;
  /** Returns the labels after the change. */
  relabel(issue: number, change: LabelChange): Promise<readonly string[]>;
  /** A second comment with the same key is not added. */
  comment(issue: number, text: string, options: { readonly idempotencyKey: string }): Promise<CommentOutcome>;
}

/** Chooses the issue source for a run (by kind and target repository). */
export type IssueSourceFactory = (kind: IssueSourceKind, repoPath: string) => IssueSource;
