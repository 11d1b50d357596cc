/**
 * The watcher's rules for red CI on a pull request it delivered (issue 40), pure: a
 * confirmed check failure starts a continuation on the same branch while rounds are left
 * (the cap is per pull request, `ciRounds`, default 1); at the cap it says so once on the
 * pull request and stops reading its checks. Check-run ids acted on and the checks run
 * again are remembered (bounded), so nothing is worked twice.
 */
import type { CiWatch, ReplyTarget, WatchTrigger } from '../../../contracts/watch.js';

const MAX_CI_IDS = 50;
export const NO_CI: CiWatch = { rounds: 0, handled: [], reran: [] };

export type CheckFailed = Extract<WatchTrigger, { kind: 'check-failed' }>;

export interface CiChange {
  readonly checkRunId?: number;
  readonly reran?: string;
  readonly round?: boolean;
  readonly stopped?: boolean;
}

export function nextCi(current: CiWatch | undefined, change: CiChange): CiWatch {
  const ci = current ?? NO_CI;
  return {
    rounds: ci.rounds + (change.round ? 1 : 0),
    handled: change.checkRunId === undefined ? ci.handled : [...ci.handled, change.checkRunId].slice(-MAX_CI_IDS),
    reran: change.reran === undefined ? ci.reran : [...ci.reran, change.reran].slice(-MAX_CI_IDS),
    ...(change.stopped || ci.stopped ? { stopped: true } : {}),
  };
}

export interface CheckFailureDecision {
  readonly ci: CiWatch;
  /** Start a continuation with the failure as its guidance. */
  readonly work: boolean;
  readonly reply: { readonly to: ReplyTarget; readonly text: string };
}

export function decideCheckFailure(
  current: CiWatch | undefined,
  failed: CheckFailed,
  cap: number,
  mention: string,
): CheckFailureDecision {
  const rounds = (current ?? NO_CI).rounds;
  // Replies about a check go on the pull request, one per check run (its id keys the reply).
  const to: ReplyTarget = { issue: failed.pull, commentId: failed.checkRunId, author: '' };
  const check = `CI check \`${failed.name}\` failed on \`${failed.sha.slice(0, 7)}\``;
  if (rounds >= cap) {
    const rule = `the cap of ${cap} round${cap === 1 ? '' : 's'} of CI fixes for this pull request is reached`;
    return {
      ci: nextCi(current, { checkRunId: failed.checkRunId, stopped: true }),
      work: false,
      reply: {
        to,
        text: `${check}; ${rule}, so it is left to a person (\`${mention} retry <guidance>\` starts another round).`,
      },
    };
  }
  return {
    ci: nextCi(current, { checkRunId: failed.checkRunId, round: true }),
    work: true,
    reply: { to, text: `${check}: the agent is working on it on this branch (round ${rounds + 1} of ${cap}).` },
  };
}
