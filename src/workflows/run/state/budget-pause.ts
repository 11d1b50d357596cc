/**
 * The budget is a hard limit (docs/concepts.md#budget): exceeding it forces a stop. A run
 * whose budget is exhausted pauses as `budget-exhausted` so an operator can raise it
 * (`raiseBudget`) or `retry`; if nobody does within the pause timeout (RunInput
 * `budgetPauseTimeoutMs`, default 24 h) the run ends stopped, code BUDGET_EXHAUSTED,
 * with no boundary effect.
 *
 * The pause is shown as what the run waits for (status, the Web UI) and posted on the
 * issue once, with what was spent, on what, and the
 * `issue-agent extend` command that raises the budget.
 */
import { condition, log } from '@temporalio/workflow';
import { FailureType } from '../../../contracts/failures.js';
import type { RunInput } from '../../../contracts/run.js';
import type { IterationOutcome } from '../iteration-outcome.js';
import type { RunSession } from './run-session.js';
import { budgetStatus } from './run-state.js';
import { controlCommand, postNotice, spendByStep, SUGGESTED_EXTENSION_USD } from './wait-notice.js';
import { atHardLimit, totalTokens, usdLimit } from '../../../contracts/usage.js';

export const DEFAULT_BUDGET_PAUSE_MS = 24 * 60 * 60 * 1000;

/** The run's pause timeout: its option when a positive number, else the default. PURE. */
export function budgetPauseTimeoutMs(input: Pick<RunInput, 'budgetPauseTimeoutMs'>): number {
  const ms = input.budgetPauseTimeoutMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_BUDGET_PAUSE_MS;
}

/** `86400000` → `24 h`; `120000` → `2 min`; `90000` → `90 s`; `1500` → `1.5 s`. PURE. */
export function formatPause(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 100) / 10} s`;
}

/** Waits for the budget; undefined when it was raised, else the run's stopped outcome. */
export async function awaitBudget(session: RunSession): Promise<IterationOutcome | undefined> {
  // The hard limit asks nobody: no extension could pass it (only runs started with one reach this).
  if (atHardLimit(session.state.budget, session.state.costUsd) || blockedAtHardLimit(session))
    return {
      kind: 'failed',
      code: FailureType.BudgetExhausted,
      reason: `stopped: budget — ${exhaustedReason(session)}, which no extension passes (no boundary effect; the work is kept on the run's branch)`,
    };
  session.setPhase('budget-exhausted');
  log.warn('budget exhausted: waiting for raiseBudget', { budget: session.state.budget });
  const timeoutMs = budgetPauseTimeoutMs(session.input);
  await announcePause(session, timeoutMs);
  const raised = await condition(() => session.budgetAvailable(), timeoutMs);
  if (session.waiting?.kind === 'budget') session.waitFor(undefined);
  if (raised) return undefined;
  const why = exhaustedReason(session);
  return {
    kind: 'failed',
    code: FailureType.BudgetExhausted,
    reason: `stopped: budget — ${why}, and it was not raised within ${formatPause(timeoutMs)} (no boundary effect)`,
  };
}

/** A step stopped before a call that would pass the USD limit, and that limit is the hard one. */
function blockedAtHardLimit(session: RunSession): boolean {
  const { hardMaxUsd } = session.state.budget;
  const limit = usdLimit(session.state.budget);
  // pricing.ts (the budget check) words a USD stop "USD budget exhausted".
  return (
    hardMaxUsd !== undefined &&
    limit !== undefined &&
    limit >= hardMaxUsd &&
    /\bUSD budget\b/.test(session.budgetBlocked ?? '')
  );
}

function exhaustedReason(session: RunSession): string {
  const status = budgetStatus(session.state);
  return session.budgetBlocked ?? (status.ok ? 'the budget is exhausted' : status.reason);
}

async function announcePause(session: RunSession, timeoutMs: number): Promise<void> {
  const { state, input } = session;
  const reason = exhaustedReason(session);
  session.waitFor({ kind: 'budget', reason, timeoutMs });
  const tokens = totalTokens(state.usage);
  await postNotice(input, {
    comment: {
      key: `${session.workflowId}:budget-paused:${state.iteration}:${tokens}`,
      template: input.issueSource === 'github' ? 'budget-paused-github' : 'budget-paused',
      values: {
        issue: String(input.issue),
        workflowId: session.workflowId,
        reason,
        cost: state.costUsd.toFixed(4),
        tokens: String(tokens),
        limitUsd:
          (state.budget.maxUsd === undefined ? 'none' : `$${state.budget.maxUsd}`) +
          (state.budget.hardMaxUsd === undefined
            ? ''
            : ` (hard limit $${state.budget.hardMaxUsd}: no extension passes it)`),
        limitTokens: state.budget.maxTokens === undefined ? 'none' : String(state.budget.maxTokens),
        bySteps: spendByStep(state.steps),
        command: controlCommand(input, 'extend'),
        usd: String(SUGGESTED_EXTENSION_USD),
        timeout: formatPause(timeoutMs),
      },
    },
  });
}
