/**
 * The run waits for its plan to be approved (issue 40, `planApproval`): the entry step's
 * plan is posted on the issue (a comment and the waiting label), status and the Web UI say
 * what to do, and the run waits on a durable timer (the answer timeout) with no activity
 * running. `/approve` from a person (a comment relayed by the watcher, `issue-agent reply
 * --issue N "/approve"`, the `answer` update) moves the run on to the step the plan routed
 * to; any other reply is a change request: the planning step runs again, still read-only,
 * with the reply quoted, and its new plan is posted in turn. `retry` also ends the wait (the
 * plan is made again). Past the timeout the run parks until an answer or a retry.
 */
import { log } from '@temporalio/workflow';
import { WAITING_LABEL, type RunWaiting } from '../../../contracts/human-loop.js';
import { totalTokens } from '../../../contracts/usage.js';
import type { IterationOutcome } from '../iteration-outcome.js';
import { answerTimeoutMs } from './answer-wait.js';
import { formatPause } from './budget-pause.js';
import { waitForPerson } from './person-wait.js';
import type { RunSession } from './run-session.js';
import { controlCommand, postNotice } from './wait-notice.js';

type PlanOutcome = Extract<IterationOutcome, { kind: 'plan' }>;

export async function awaitPlanApproval(
  session: RunSession,
  plan: PlanOutcome,
  shown: () => Promise<void>,
): Promise<void> {
  const { input, state } = session;
  const timeoutMs = answerTimeoutMs(input);
  const waiting: RunWaiting = { kind: 'plan', reason: plan.reason, timeoutMs, next: plan.next };
  session.waitFor(waiting);
  session.setPhase('waiting-for-answer');
  log.info('waiting for the plan to be approved', { step: state.stepId, next: plan.next, reason: plan.reason });
  await postNotice(input, {
    comment: {
      key: `${session.workflowId}:plan:${state.iteration}:${totalTokens(state.usage)}`,
      template: input.issueSource === 'github' ? 'plan-github' : 'plan',
      values: {
        issue: String(input.issue),
        workflowId: session.workflowId,
        step: state.stepId,
        next: plan.next,
        reason: plan.reason,
        files: plan.files.length === 0 ? '(none named)' : plan.files.map((f) => `\`${f}\``).join(', '),
        plan: plan.plan.replace(/```/g, "'''"),
        command: controlCommand(input, 'reply').replace('your answer', '/approve'),
        timeout: formatPause(timeoutMs),
      },
    },
    labels: { add: [WAITING_LABEL] },
  });
  await shown();
  await waitForPerson(session, waiting, shown);
}
