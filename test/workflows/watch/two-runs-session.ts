/**
 * The scripted model of a watcher test with a continuation: two passes of the default
 * playbook in order, each rule used once. The first fixes the demo's sum(); the second
 * makes `second`'s change, and its first step matches only when its prompt holds every
 * string of `continuationSees` (the comment's words, the failed check's log): so the
 * continuation is only answered if the watcher passed that guidance on.
 */
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';
import { fixSession } from '../../helpers/fix-session.js';

export function twoRunsSession(second: { readonly new: string }, continuationSees: readonly string[]): SessionScript {
  const first = fixSession({
    name: 'sum',
    fix: { path: 'src/sum.js', old: 'return a - b;', new: 'return a + b;' },
    testCommand: 'npm test --silent',
  });
  const then = fixSession({
    name: 'doc',
    fix: { path: 'src/sum.js', old: '/** Adds two numbers. */', new: second.new },
    testCommand: 'npm test --silent',
  });
  return {
    ...first,
    rules: [
      ...first.rules.map((r) => ({ ...r, id: `1-${r.id}`, times: 1 })),
      ...then.rules.map((r) => ({
        ...r,
        id: `2-${r.id}`,
        times: 1,
        ...(r.id === 'understand' ? { when: { ...r.when, promptContains: [...continuationSees] } } : {}),
      })),
    ],
  };
}
