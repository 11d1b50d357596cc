/**
 * The run waits for a person's answer (issue 40): the model asked a question with the
 * `ask` tool, so the run posts it on the issue (a comment and the waiting label), shows
 * `waiting for an answer` in status, the progress comment and the Web UI, and waits on a
 * durable timer (RunInput.answerTimeoutMs, default 3 days) with no activity running: no
 * worker slot, no model call. The `answer` update or signal (`issue-agent reply`) ends the
 * wait and the asking step runs again with the answer quoted; `retry` ends it too, and the
 * step runs again without one (the model may ask again).
 *
 * A timeout never fails the run and never guesses: the run parks as `unanswered`, which
 * status and the Web UI say, and waits on (with no timer) for a later answer or a retry.
 * Reached only through a step that asked (flow/asked-step.ts).
 */
import { log } from '@temporalio/workflow';
import { DEFAULT_ANSWER_TIMEOUT_MS, WAITING_LABEL, type AskedQuestion } from '../../../contracts/human-loop.js';
import type { RunInput } from '../../../contracts/run.js';
import { totalTokens } from '../../../contracts/usage.js';
import { formatPause } from './budget-pause.js';
import { waitForPerson } from './person-wait.js';
import type { RunSession } from './run-session.js';
import { controlCommand, postNotice, questionText } from './wait-notice.js';

/** The run's answer timeout: its option when a positive number, else the default. PURE. */
export function answerTimeoutMs(input: Pick<RunInput, 'answerTimeoutMs'>): number {
  const ms = input.answerTimeoutMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_ANSWER_TIMEOUT_MS;
}

/**
 * Waits until the question is answered or a retry comes; parks (without a timer) past the
 * timeout. `shown` refreshes the progress comment when the wait starts and when it parks.
 */
export async function awaitAnswer(
  session: RunSession,
  question: AskedQuestion,
  shown: () => Promise<void>,
): Promise<void> {
  const { input, state } = session;
  const timeoutMs = answerTimeoutMs(input);
  const waiting = {
    kind: 'answer',
    reason: question.question,
    ...(question.choices === undefined ? {} : { choices: question.choices }),
    timeoutMs,
  } as const;
  session.waitFor(waiting);
  session.setPhase('waiting-for-answer');
  log.info('waiting for an answer', { step: state.stepId, timeoutMs });
  await postNotice(input, {
    comment: {
      key: `${session.workflowId}:question:${state.iteration}:${totalTokens(state.usage)}`,
      template: input.issueSource === 'github' ? 'question-github' : 'question',
      values: {
        issue: String(input.issue),
        workflowId: session.workflowId,
        step: state.stepId,
        question: questionText(question),
        command: controlCommand(input, 'reply'),
        timeout: formatPause(timeoutMs),
      },
    },
    labels: { add: [WAITING_LABEL] },
  });
  await shown();
  await waitForPerson(session, waiting, shown);
}
