/**
 * The progress comment of a run: one comment on the issue, created when the run
 * starts and edited in place. The workflow sends a view (no text); the activity
 * renders it from prompts/comments/ and keeps the comment id idempotent.
 */
import type { IssueSourceKind, RunOutcome } from './run.js';

export const StepMark = { Done: 'done', Current: 'current', Pending: 'pending' } as const;
export type StepMark = (typeof StepMark)[keyof typeof StepMark];

export interface ProgressView {
  readonly steps: ReadonlyArray<{ readonly stepId: string; readonly mark: StepMark }>;
  readonly iteration: number;
  readonly maxIterations: number;
  readonly tokens: number;
  readonly costUsd: number;
  /** The last validator verdict, one line. */
  readonly verdict?: string;
  readonly uiUrl?: string;
  readonly phase: string;
  readonly outcome?: {
    readonly kind: RunOutcome;
    readonly reason: string;
    readonly prUrl?: string;
    readonly branch?: string;
  };
}

export interface ProgressCommentInput {
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  readonly issue: number;
  /** The run (Workflow ID + run id): the hidden marker that finds the comment again. */
  readonly runKey: string;
  /** Known after the first call: edits go straight to it. */
  readonly commentId?: number;
  readonly view: ProgressView;
}

export interface ProgressCommentOutput {
  readonly commentId?: number;
}

export interface ProgressActivities {
  updateProgressComment(input: ProgressCommentInput): Promise<ProgressCommentOutput>;
}

/** What a run needs to keep a progress comment (set by the watcher; absent: none). */
export interface ProgressCommentSettings {
  readonly uiWorkflowsUrl?: string;
  /** The comment already created: set when a run continues as new, so it edits the same one. */
  readonly commentId?: number;
}
