/**
 * The RunResult a run ends with, from the last iteration's outcome (or its cancel), and
 * the phase it ends in. One exhaustive switch per closed set, so a new outcome is
 * placed here or the compiler says where it is missing. PURE (workflow code).
 */
import { FailureType } from '../../../contracts/failures.js';
import type { RunPhase, RunResult } from '../../../contracts/run.js';
import type { IterationOutcome } from '../iteration-outcome.js';
import type { RunSession } from './run-session.js';

export type RunEnd = IterationOutcome | { readonly kind: 'cancelled'; readonly reason: string };

export function toResult(session: RunSession, outcome: RunEnd): RunResult {
  const s = session.state;
  const base = {
    iterations: s.iteration,
    steps: s.steps,
    usage: s.usage,
    costUsd: s.costUsd,
    definitionHash: session.definition?.hash ?? '',
    handoff: s.stepContext,
    ...(session.workspace ? { worktreePath: session.workspace.worktreePath, branch: session.workspace.branch } : {}),
    ...(session.warnings.length > 0 ? { warnings: [...session.warnings] } : {}),
    ...(session.environment.length > 0 ? { environment: [...session.environment] } : {}),
  };
  switch (outcome.kind) {
    case 'done':
      return {
        ...base,
        outcome: 'success',
        reason: outcome.reason,
        ...(outcome.verdict ? { verdict: outcome.verdict } : {}),
        ...(outcome.boundary ? { boundary: outcome.boundary } : {}),
      };
    case 'no-change':
      return {
        ...base,
        outcome: 'no-change',
        reason: outcome.reason,
        boundary: outcome.boundary,
        noChange: outcome.unchanged,
      };
    case 'failed':
      return {
        ...base,
        outcome: 'failed',
        code: outcome.code,
        reason: outcome.reason,
        ...(outcome.boundary ? { boundary: outcome.boundary } : {}),
      };
    case 'cancelled':
      return { ...base, outcome: 'cancelled', reason: outcome.reason };
    case 'continue':
    case 'budget-exhausted':
    case 'question':
    case 'plan':
      return { ...base, outcome: 'failed', code: FailureType.Aborted, reason: 'run loop ended unexpectedly' };
  }
}

/** The phase a run ends in (the RunPhase search attribute and `status`). */
export function endPhaseOf(outcome: RunResult['outcome']): RunPhase {
  switch (outcome) {
    case 'success':
      return 'completed';
    case 'no-change':
      return 'no-change';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      return 'failed';
  }
}
