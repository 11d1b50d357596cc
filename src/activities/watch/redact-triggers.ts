/**
 * What a poll found goes into the watch workflow's history (and from there into a run's
 * guidance): issue titles, comment and review texts, a failed CI job's log excerpt. All of
 * it is text we did not write. A CI log in particular may print a credential the build
 * had (a token echoed by a script, a URL with a password), and a comment may quote one.
 * Every free-text field passes through the worker's redactor before the activity returns,
 * so no secret the worker knows of reaches history, a prompt or an artifact this way.
 */
import type { Redact } from '../edge/secret-redactor.js';
import type { PollWatchOutput, WatchTrigger } from '../../contracts/watch.js';

export function redactTrigger(trigger: WatchTrigger, redact: Redact): WatchTrigger {
  switch (trigger.kind) {
    case 'label':
      return { ...trigger, title: redact(trigger.title) };
    case 'mention':
    case 'command':
    case 'comment':
    case 'review':
    case 'check-failed':
      return { ...trigger, text: redact(trigger.text) };
    case 'extend':
    case 'check-rerun':
    case 'pull-closed':
      return trigger;
    default: {
      const never: never = trigger;
      return never;
    }
  }
}

export function redactPoll(output: PollWatchOutput, redact: Redact): PollWatchOutput {
  return { ...output, triggers: output.triggers.map((t) => redactTrigger(t, redact)) };
}
