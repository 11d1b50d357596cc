/**
 * The handlers of what people send a waiting run (issue 40): the `answer` update and
 * signal (`issue-agent reply`, the watcher relaying an issue comment, the Web UI) and the
 * `extendBudget` signal (`/extend 5` on the issue, through the watcher), which adds to
 * the limits where `raiseBudget` sets them. Payloads are unknown until checked: a bad one
 * is a warning, never a throw that would fail the workflow task.
 */
import { ApplicationFailure, log, setHandler } from '@temporalio/workflow';
import { extendedBudget } from '../../../contracts/human-loop.js';
import { totalTokens } from '../../../contracts/usage.js';
import { checkAnswerArgs, checkBudgetArgs } from '../message-checks.js';
import { answerSignal, answerUpdate, extendBudgetSignal } from '../messages.js';
import type { RunSession } from './run-session.js';

const NOT_WAITING = 'the run is not waiting for an answer (it asked no question, or it was answered)';

export function setHumanLoopHandlers(session: RunSession): void {
  setHandler(answerSignal, (args: unknown) => {
    const checked = checkAnswerArgs(args);
    if (!checked.ok) return session.rejectSignal('answer', checked.reason);
    // The watcher relays every comment of an allowed author: one when the run asked nothing is not news.
    if (!session.receiveAnswer(checked.value)) log.info('answer ignored', { reason: NOT_WAITING });
  });
  setHandler(
    answerUpdate,
    (args: unknown) => {
      const checked = checkAnswerArgs(args);
      if (!checked.ok || !session.receiveAnswer(checked.value))
        throw ApplicationFailure.nonRetryable(checked.ok ? NOT_WAITING : checked.reason, 'INVALID_PAYLOAD');
      return `answer from ${checked.value.author} received`;
    },
    {
      validator: (args: unknown) => {
        const checked = checkAnswerArgs(args);
        if (!checked.ok) throw new Error(checked.reason);
        const kind = session.waiting?.kind;
        if (kind !== 'answer' && kind !== 'plan') throw new Error(NOT_WAITING);
      },
    },
  );
  setHandler(extendBudgetSignal, (args: unknown) => {
    const checked = checkBudgetArgs(args);
    if (!checked.ok) return session.rejectSignal('extendBudget', checked.reason);
    const { state } = session;
    const raised = session.raiseBudget(
      extendedBudget(
        { budget: state.budget, costUsd: state.costUsd, tokensTotal: totalTokens(state.usage) },
        checked.value,
      ),
    );
    log.info('budget extended', { budget: raised });
  });
}
