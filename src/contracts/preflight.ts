/**
 * The preflight: before the first model call, every command validator the agent will be
 * judged by runs once on the prepared base commit. A command that cannot run at all
 * (behind a wrapper too), or a test command failing there with no failure named, ends the
 * run as ENVIRONMENT_FAILED (no model request made); tests that merely fail on the base
 * become the baseline, named, so `baseline: ignore` works from the first attempt.
 */
import type { CompletionStepDefinition, ValidatorDefinition } from './definition.js';

export interface PreflightInput {
  readonly worktreePath: string;
  readonly completionSteps: readonly CompletionStepDefinition[];
  readonly validators: Readonly<Record<string, ValidatorDefinition>>;
}

/** How one command did on the base. Closed set. */
export const PreflightStatus = {
  Passed: 'passed',
  /** Failed on the base with named failing tests: recorded as the baseline. */
  Baseline: 'baseline',
  /** A check (lint, type check) failing on the base, or tests that cannot load there: the agent may be asked to fix it. */
  FailingOnBase: 'failing-on-base',
  /** Ran past its timeout on the base: says nothing about the environment. */
  TimedOut: 'timed-out',
} as const;
export type PreflightStatus = (typeof PreflightStatus)[keyof typeof PreflightStatus];

export interface PreflightCheck {
  readonly validator: string;
  readonly command: string;
  readonly status: PreflightStatus;
  readonly exitCode?: number;
  readonly failedTests?: readonly string[];
  /** One or two lines for progress and the Web UI. */
  readonly summary: string;
}

export interface PreflightReport {
  readonly checks: readonly PreflightCheck[];
  /** Why nothing ran: the worktree already holds the run's work (a revived run), so the base cannot be checked there. */
  readonly skipped?: string;
  /** As ValidationReport.gitRestored: the commands ran the repository's code. */
  readonly gitRestored?: readonly string[];
}

/**
 * Why the preflight stopped a run (the `stop` detail of its ENVIRONMENT_FAILED): the
 * command cannot run here, or it fails with no failure named. Only the first can be
 * helped by another setup (the agent-written setup, contracts/agent-setup.ts).
 */
export const PreflightStopKind = { CannotRun: 'cannot-run', Unnamed: 'unnamed' } as const;
export type PreflightStopKind = (typeof PreflightStopKind)[keyof typeof PreflightStopKind];
