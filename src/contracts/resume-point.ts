/**
 * Where a retried failed run starts again (the `retry` command on a run that already
 * failed): a new run of the same issue, seeded with the failed run's StepContext, at
 * the step that was to run after the last completed one (or that step itself when it
 * routed nowhere, e.g. it failed its gate). Without any completed step: the entry.
 * Pure: the CLI builds it from the failed run's result; the workflow applies it.
 */
import type { ResumePoint, RunResult } from './run.js';

export function resumePointAfterFailure(result: RunResult, fromRunId: string): ResumePoint | undefined {
  const last = result.steps[result.steps.length - 1];
  if (last === undefined) return undefined;
  const stepId = typeof last.next === 'string' ? last.next : last.stepId;
  return { stepId, stepContext: result.handoff as ResumePoint['stepContext'], fromRunId };
}

/** The resume point if its step exists in this definition; else undefined (start at the entry). */
export function applicableResume(
  resume: ResumePoint | undefined,
  steps: Readonly<Record<string, unknown>>,
): ResumePoint | undefined {
  return resume !== undefined && Object.hasOwn(steps, resume.stepId) ? resume : undefined;
}

export type { ResumePoint };
