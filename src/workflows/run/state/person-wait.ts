/**
 * The common end of every wait for a person (a question, a plan to approve): wait on the
 * durable timer for the wait to end (an answer, a retry); past the timeout never fail and
 * never guess, park as `unanswered` (shown) and wait on with no timer; in any case take
 * the waiting label off the issue, also when the run is cancelled while it waits.
 */
import { CancellationScope, condition, log } from '@temporalio/workflow';
import { WAITING_LABEL, type RunWaiting } from '../../../contracts/human-loop.js';
import type { RunSession } from './run-session.js';
import { postNotice } from './wait-notice.js';

export async function waitForPerson(
  session: RunSession,
  waiting: RunWaiting,
  shown: () => Promise<void>,
): Promise<void> {
  const waitEnded = (): boolean => session.waiting === undefined;
  try {
    if (!(await condition(waitEnded, waiting.timeoutMs))) {
      log.warn('nobody answered within the answer timeout: the run is parked until a reply or a retry', {
        waitingFor: waiting.kind,
        timeoutMs: waiting.timeoutMs,
      });
      session.waitFor({ ...waiting, timedOut: true });
      session.setPhase('unanswered');
      await shown();
      await condition(waitEnded);
    }
  } finally {
    await CancellationScope.nonCancellable(() => postNotice(session.input, { labels: { remove: [WAITING_LABEL] } }));
  }
}
