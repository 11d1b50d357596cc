/**
 * What a poll's triggers do to the watcher's state and ask of it now, pure: a taker for
 * `session.take` that folds the triggers in order (each sees what the ones before it
 * changed) and hands out the actions the workflow carries out at once (signals, replies).
 */
import type { CheckFailed } from './ci-rounds.js';
import { decideCheckFailure, nextCi, type CiChange } from './ci-rounds.js';
import type { ReplyTarget, WatchedRun, WatchTrigger } from '../../../contracts/watch.js';
import { issueOf, runOf, type WatchState } from './watch-state.js';
import { forgetWork, owe, replaceRun } from './watch-transitions.js';

/** Something the workflow must do now for a command (signals and replies). */
export type WatchAction =
  | { readonly kind: 'cancel'; readonly run: WatchedRun; readonly reply: ReplyTarget }
  | { readonly kind: 'retry'; readonly run: WatchedRun; readonly text: string; readonly reply: ReplyTarget }
  | { readonly kind: 'status'; readonly run: WatchedRun; readonly reply: ReplyTarget }
  | { readonly kind: 'reply'; readonly reply: ReplyTarget; readonly text: string }
  | { readonly kind: 'extend'; readonly run: WatchedRun; readonly usd: number; readonly reply: ReplyTarget }
  /** A comment relayed to the issue's live run as the answer to its question (ignored when it asked none). */
  | { readonly kind: 'answer'; readonly run: WatchedRun; readonly text: string; readonly reply: ReplyTarget };

/** The watch input's settings the triggers read. */
export interface TriggerRules {
  readonly ciRounds: number;
  readonly mention: string;
}

interface Folded {
  readonly state: WatchState;
  readonly actions: readonly WatchAction[];
}

const changeCi = (state: WatchState, run: WatchedRun, change: CiChange): WatchState =>
  replaceRun(state, { ...run, ci: nextCi(run.ci, change) });

/** A confirmed CI failure: a continuation with its log while rounds are left (ci-rounds.ts). */
function checkFailed(state: WatchState, run: WatchedRun, t: CheckFailed, rules: TriggerRules): Folded {
  const decided = decideCheckFailure(run.ci, t, rules.ciRounds, rules.mention);
  const replaced = replaceRun(state, { ...run, ci: decided.ci });
  return {
    state: decided.work ? owe(replaced, run.issue, 'continue', t.text, undefined) : replaced,
    actions: [{ kind: 'reply', reply: decided.reply.to, text: decided.reply.text }],
  };
}

function command(state: WatchState, t: Extract<WatchTrigger, { kind: 'command' }>, issue: number): Folded {
  const run = runOf(state, issue);
  const live = run?.state === 'running';
  const none = (text: string): Folded => ({ state, actions: [{ kind: 'reply', reply: t.reply, text }] });
  switch (t.command) {
    case 'cancel': {
      const forgotten = forgetWork(state, issue);
      if (live) return { state: forgotten, actions: [{ kind: 'cancel', run, reply: t.reply }] };
      return { ...none(`no live run for #${issue}: nothing to cancel`), state: forgotten };
    }
    case 'retry':
      if (live) return { state, actions: [{ kind: 'retry', run, text: t.text, reply: t.reply }] };
      return { state: owe(state, issue, run === undefined ? 'start' : 'continue', t.text, t.reply), actions: [] };
    case 'status':
      if (run !== undefined) return { state, actions: [{ kind: 'status', run, reply: t.reply }] };
      return none(`no run of #${issue} is known to this watcher`);
  }
}

/** One trigger: its change of state and its actions. */
function trigger(state: WatchState, t: WatchTrigger, rules: TriggerRules): Folded {
  const issue = issueOf(state, t.issue);
  const run = runOf(state, issue);
  const just = (next: WatchState): Folded => ({ state: next, actions: [] });
  switch (t.kind) {
    case 'label':
      return just(run?.state !== 'running' ? owe(state, issue, 'start', undefined, undefined) : state);
    case 'mention':
      if (t.onPull && run === undefined) return just(state); // a pull request the watcher did not deliver
      return just(owe(state, issue, run === undefined ? 'start' : 'continue', t.text, t.reply));
    case 'review': {
      const seen =
        run === undefined ? state : replaceRun(state, { ...run, seenReviews: [...run.seenReviews, t.reviewId] });
      return just(owe(seen, issue, 'continue', t.text, undefined));
    }
    case 'check-rerun':
      return just(run === undefined ? state : changeCi(state, run, { checkRunId: t.checkRunId, reran: t.key }));
    case 'check-failed':
      return run === undefined ? just(state) : checkFailed(state, run, t, rules);
    case 'pull-closed':
      return just(run === undefined ? state : changeCi(state, run, { stopped: true }));
    case 'extend':
      if (run?.state === 'running') return { state, actions: [{ kind: 'extend', run, usd: t.usd, reply: t.reply }] };
      return {
        state,
        actions: [{ kind: 'reply', reply: t.reply, text: `no live run for #${issue}: nothing to extend` }],
      };
    case 'comment':
      if (run?.state === 'running') return { state, actions: [{ kind: 'answer', run, text: t.text, reply: t.reply }] };
      return just(state);
    case 'command':
      return command(state, t, issue);
  }
}

/** A poll's triggers, in order: the state they leave and the actions they ask for now. */
export function applyTriggers(
  state: WatchState,
  triggers: readonly WatchTrigger[],
  rules: TriggerRules,
): { state: WatchState; actions: WatchAction[] } {
  let s = state;
  const actions: WatchAction[] = [];
  for (const t of triggers) {
    const folded = trigger(s, t, rules);
    s = folded.state;
    actions.push(...folded.actions);
  }
  return { state: s, actions };
}
