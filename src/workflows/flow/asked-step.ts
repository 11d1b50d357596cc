/**
 * A model step that ended at the `ask` tool (issue 40): it did not complete, so like a
 * step stopped by the budget it keeps its iteration number and what it runs again with,
 * and what it spent is recorded; the run loop then posts the question and waits for an
 * answer (run/state/answer-wait.ts), and the step runs again with the answer quoted.
 *
 */
import { log } from '@temporalio/workflow';
import type { QueryStepOutput } from '../../contracts/activities.js';
import type { AskedQuestion } from '../../contracts/human-loop.js';
import type { StepDefinition } from '../../contracts/definition.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import { stopOnQuestion, type StepRerun } from '../run/state/run-transitions.js';

export function stepAsked(
  session: RunSession,
  step: Pick<StepDefinition, 'stepId' | 'stepKind'>,
  rerun: StepRerun,
  answer: QueryStepOutput,
  question: AskedQuestion,
): IterationOutcome {
  log.info('[StepFlow] the model asked a question: the run waits for an answer', { step: step.stepId });
  session.apply(
    stopOnQuestion,
    rerun,
    step,
    {
      usage: answer.usage,
      costUsd: answer.costUsd,
      turns: answer.turns,
      transcript: answer.transcript.path,
      ...(answer.worktreeCheckpoint === undefined ? {} : { checkpoint: answer.worktreeCheckpoint }),
    },
    question,
  );
  return { kind: 'question', question };
}
