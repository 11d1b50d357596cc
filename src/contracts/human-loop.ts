/**
 * Humans in the loop (issue 40): what a run waits for a person on, what it posts on
 * the issue while it waits, and what comes back. Shared by the workflow (the waits in
 * workflows/run/state/), the notice activity (activities/issues/issue-notice.ts), the
 * `ask` tool and the `reply` / `extend` commands. Pure.
 */
import type { IssueSourceKind } from './run.js';
import type { RunBudget } from './usage.js';

/** What a waiting run waits for: a raised budget (`extend`), an answer (`reply`), its plan approved (`/approve`). */
export const WaitKind = { Budget: 'budget', Answer: 'answer', Plan: 'plan' } as const;
export type WaitKind = (typeof WaitKind)[keyof typeof WaitKind];

/** The model's `ask` tool call, checked: one question, optionally the answers it offers. */
export interface AskedQuestion {
  readonly question: string;
  readonly choices?: readonly string[];
}

/** An answer to the run's question: who wrote it and their words (quoted in the next prompt). */
export interface HumanAnswer {
  readonly author: string;
  readonly text: string;
}

/** An answer with the question it answers: what the asking step's next prompt quotes. */
export interface AnsweredQuestion extends HumanAnswer {
  readonly question: string;
}

/** What a run shows while it waits for a person (status, current details, the `progress` query). */
export interface RunWaiting {
  readonly kind: WaitKind;
  /** Budget: why it is exhausted. Answer: the question. */
  readonly reason: string;
  readonly choices?: readonly string[];
  /** The wait's timer ran out: the run is parked until `reply` (answer) or `retry`. */
  readonly timedOut?: boolean;
  /** The wait's timeout, ms. */
  readonly timeoutMs: number;
  /** Plan: the step the run goes on to once the plan is approved. */
  readonly next?: string;
}

/**
 * What a waiting run waits for and the command that ends the wait (status, --follow):
 * `waiting: budget exhausted (…); run issue-agent extend --issue 3 --usd 5`.
 */
export function waitingLine(p: { readonly issue: number; readonly waiting?: RunWaiting }): string | undefined {
  const w = p.waiting;
  if (w === undefined) return undefined;
  switch (w.kind) {
    case 'budget':
      return `waiting: budget exhausted (${w.reason}); run issue-agent extend --issue ${p.issue} --usd 5 (or --tokens N)`;
    case 'plan': {
      const how = `issue-agent reply --issue ${p.issue} "/approve"`;
      const what = `the plan needs approval (${w.reason}); approve with ${how}, or reply with the changes you want`;
      return w.timedOut === true ? `parked: ${what}` : `waiting: ${what}`;
    }
    case 'answer': {
      const choices = w.choices === undefined ? '' : ` [choices: ${w.choices.join(' | ')}]`;
      const how = `issue-agent reply --issue ${p.issue} "your answer"`;
      return w.timedOut === true
        ? `parked: no answer came in time to "${w.reason}"${choices}; answer with ${how}, or issue-agent retry --issue ${p.issue}`
        : `waiting for an answer: "${w.reason}"${choices}; answer with ${how}`;
    }
  }
}

/** The new limits: each given amount added to the current limit (or to what was spent, when none). PURE. */
export function extendedBudget(
  progress: { readonly budget?: RunBudget; readonly costUsd: number; readonly tokensTotal: number },
  add: RunBudget,
): RunBudget {
  const budget: { maxUsd?: number; maxTokens?: number } = {};
  if (add.maxUsd !== undefined)
    budget.maxUsd = Math.round(((progress.budget?.maxUsd ?? progress.costUsd) + add.maxUsd) * 10_000) / 10_000;
  if (add.maxTokens !== undefined)
    budget.maxTokens = (progress.budget?.maxTokens ?? progress.tokensTotal) + add.maxTokens;
  return budget;
}

/** How long a run waits for an answer before it parks (RunInput.answerTimeoutMs). */
export const DEFAULT_ANSWER_TIMEOUT_MS = 3 * 24 * 60 * 60 * 1000;

/** The longest question or answer a run keeps (both land in history and in a prompt). */
export const MAX_QUESTION_CHARS = 4_000;
export const MAX_ANSWER_CHARS = 16_000;
export const MAX_CHOICES = 10;

/** The label a run puts on its issue while it waits for an answer. */
export const WAITING_LABEL = 'agent:waiting';

/** The notices a run posts on its issue; each is a template in prompts/comments/. */
export const NoticeTemplate = {
  BudgetPaused: 'budget-paused',
  /** The pause on a GitHub issue: also raised by a `/extend 5` comment (relayed by the watcher). */
  BudgetPausedGitHub: 'budget-paused-github',
  /** The question on a local issue: answered with `issue-agent reply`. */
  Question: 'question',
  /** The question on a GitHub issue: answered by a comment (relayed by the watcher) or `reply`. */
  QuestionGitHub: 'question-github',
  /** The plan to approve (planApproval): `/approve`, or a reply with changes. */
  Plan: 'plan',
  PlanGitHub: 'plan-github',
} as const;
export type NoticeTemplate = (typeof NoticeTemplate)[keyof typeof NoticeTemplate];

export interface IssueNoticeInput {
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  readonly issue: number;
  /** The comment; absent: labels only (a wait ended and its label comes off). */
  readonly comment?: {
    /** Its idempotency key: a retried activity never posts it twice. */
    readonly key: string;
    readonly template: NoticeTemplate;
    /** The template's `{{name}}` values. */
    readonly values: Readonly<Record<string, string>>;
  };
  readonly labels?: { readonly add?: readonly string[]; readonly remove?: readonly string[] };
}

export interface IssueNoticeOutput {
  readonly commented: boolean;
}

export interface HumanLoopActivities {
  /** One comment on the run's issue and its labels: idempotent (the comment by its key). */
  postIssueNotice(input: IssueNoticeInput): Promise<IssueNoticeOutput>;
}
