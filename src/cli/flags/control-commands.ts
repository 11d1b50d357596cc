/**
 * Flags of the commands that query and steer a live or finished run: status, retry, cancel, extend, reply, reset.
 */
import { COMMON_FLAGS, type CommandSpec } from './flag-spec.js';

export const CONTROL_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  status: {
    name: 'status',
    summary: 'Show the state of the run for an issue.',
    flags: {
      issue: COMMON_FLAGS.issue,
      repo: COMMON_FLAGS.repo,
      agent: COMMON_FLAGS.agent,
      json: COMMON_FLAGS.json,
      help: COMMON_FLAGS.help,
    },
  },
  retry: {
    name: 'retry',
    summary: 'Signal the run to retry; an optional prompt is guidance added to the next step prompt.',
    flags: {
      issue: COMMON_FLAGS.issue,
      repo: COMMON_FLAGS.repo,
      agent: COMMON_FLAGS.agent,
      prompt: { type: 'string', value: 'TEXT', help: 'guidance added to the next step prompt the model sees' },
      help: COMMON_FLAGS.help,
    },
  },
  cancel: {
    name: 'cancel',
    summary: 'Cancel the run gracefully: the running step stops, the worktree is kept.',
    flags: {
      issue: COMMON_FLAGS.issue,
      repo: COMMON_FLAGS.repo,
      agent: COMMON_FLAGS.agent,
      reason: { type: 'string', value: 'TEXT', help: 'why (recorded in the result)' },
      help: COMMON_FLAGS.help,
    },
  },
  extend: {
    name: 'extend',
    summary:
      'Raise the budget of a run paused because its budget is spent: the amount is added to its limit, and the run goes on.',
    flags: {
      issue: COMMON_FLAGS.issue,
      repo: COMMON_FLAGS.repo,
      agent: COMMON_FLAGS.agent,
      usd: { type: 'string', value: 'X', help: 'US dollars added to the cost limit (e.g. --usd 5)' },
      tokens: { type: 'string', value: 'N', help: 'tokens added to the token limit' },
      help: COMMON_FLAGS.help,
    },
  },
  reply: {
    name: 'reply',
    summary:
      'Answer the question a run asked, or approve its plan with "/approve" (or ask for changes): `issue-agent reply --issue N "text"`. The answer is added to the issue\'s comments and quoted in the next prompt.',
    rest: 'text',
    flags: {
      issue: COMMON_FLAGS.issue,
      repo: COMMON_FLAGS.repo,
      agent: COMMON_FLAGS.agent,
      text: { type: 'string', value: 'TEXT', help: 'the answer (or give it after the flags)' },
      help: COMMON_FLAGS.help,
    },
  },
  reset: {
    name: 'reset',
    summary: [
      'Reset the run of an issue to right after its step K (a Temporal reset): steps 1..K stay in history, step K+1 runs next,',
      "and the worktree goes back to step K's checkpoint (files, branch commits, index) before it does. Works on a live, failed",
      'or completed run whose worktree still exists; signals sent after step K are not re-applied.',
    ].join('\n'),
    flags: {
      issue: COMMON_FLAGS.issue,
      repo: COMMON_FLAGS.repo,
      agent: COMMON_FLAGS.agent,
      'to-step': {
        type: 'string',
        value: 'K',
        help: 'the step to go back to: its number in the run (1 = the first step; see `status --json`, steps[].iteration); required',
      },
      reason: { type: 'string', value: 'TEXT', help: 'why (recorded with the reset in the run history)' },
      help: COMMON_FLAGS.help,
    },
  },
};
