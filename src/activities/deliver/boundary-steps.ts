/**
 * The vocabulary both boundary hooks report in: each effect is done, already done
 * (found on a re-run: the hooks look before acting), skipped or failed, optionally with
 * a pending action a person (or a later run) has to take. The report's status follows
 * from the steps: success when nothing is pending, failed when nothing succeeded,
 * partial otherwise.
 */
import { AgentError } from '../../contracts/errors.js';
import type { DeliveryMode } from '../../contracts/delivery.js';
import type { BoundaryEffect, BoundaryReport, FinalizeStatus } from '../../contracts/run.js';

export interface Step {
  readonly effect: BoundaryEffect;
  readonly pending?: string;
}

export const done = (name: string, detail: string): Step => ({ effect: { name, status: 'done', detail } });
export const already = (name: string, detail: string): Step => ({ effect: { name, status: 'already-done', detail } });
export const skipped = (name: string, detail: string, pending?: string): Step => ({
  effect: { name, status: 'skipped', detail },
  ...(pending ? { pending } : {}),
});
export const failed = (name: string, detail: string, pending: string): Step => ({
  effect: { name, status: 'failed', detail },
  pending,
});
export const succeeded = (s: Step): boolean => s.effect.status === 'done' || s.effect.status === 'already-done';

export interface ReportExtras {
  readonly prUrl?: string;
  readonly delivery?: DeliveryMode;
  readonly mergeCommand?: string;
}

export function report(steps: readonly Step[], extra: ReportExtras = {}): BoundaryReport {
  const pending = steps.flatMap((s) => (s.pending ? [s.pending] : []));
  const anyFailed = steps.some((s) => s.effect.status === 'failed');
  const anySucceeded = steps.some(succeeded);
  const status: FinalizeStatus =
    pending.length === 0 && !anyFailed ? 'success' : anyFailed && !anySucceeded ? 'failed' : 'partial';
  return {
    status,
    ...(extra.delivery === undefined ? {} : { delivery: extra.delivery }),
    effects: steps.map((s) => s.effect),
    pending,
    ...(extra.prUrl === undefined ? {} : { prUrl: extra.prUrl }),
    ...(extra.mergeCommand === undefined ? {} : { mergeCommand: extra.mergeCommand }),
  };
}

/** One line for a report: AgentErrors described with their code, anything else by message. */
export function describeError(error: unknown): string {
  if (AgentError.isInstance(error)) return error.describe();
  return error instanceof Error ? error.message : String(error);
}
