/**
 * A scripted model that changes nothing, for the no-op guard's run tests and recorded
 * history: the default playbook's five steps answered at once, no tool used, and an issue
 * that does not name the sample repository's (already failing) test, so the baseline
 * excuses that failure and nothing but the guard stands between the closing and delivery.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';

const ISSUE = `---
title: sum(0, 0) should return 0
state: open
labels: [bug]
---
Make sure \`sum(0, 0)\` returns \`0\`.
`;

const answer = (stepId: string, action: string, rest: Record<string, unknown>): SessionRule['respond'] => ({
  json: {
    stepId,
    status: 'completed',
    summary: `${stepId}: nothing to change.`,
    next_action: { action, reason: 'ok' },
    ...rest,
  },
});
const rule = (id: string, prompt: string | string[], respond: SessionRule['respond']): SessionRule => ({
  id,
  when: { promptContains: prompt },
  respond,
});

export const CLOSING = {
  verdict: 'done',
  evidence: { git_status: '', tests: 'npm test: as on main', commands: [{ command: 'git status', result: 'clean' }] },
};
export const NO_CHANGE = {
  reason: 'already-fixed',
  evidence: 'node -e "console.log(require(\'./src/sum.js\'))": sum(0, 0) is 0 on main',
};

/** understand → reproduce → implement → review → closure, none of them touching a file. */
export function changesNothing(name: string, closure: Record<string, unknown>): SessionScript {
  return {
    name,
    rules: [
      rule(
        'retry-nothing-changed',
        'completion check failed: nothing changed',
        answer('closure.issue', 'closing', closure),
      ),
      rule(
        'understand',
        'Step initial.understand',
        answer('initial.understand', 'next', {
          understanding: {
            acceptance_criteria: ['sum(0, 0) returns 0'],
            relevant_files: ['src/sum.js'],
            test_command: 'npm test --silent',
          },
        }),
      ),
      rule(
        'reproduce',
        'Step continuation.reproduce',
        answer('continuation.reproduce', 'next', {
          reproduction: { kind: 'command', command: 'node -e "0"', observed: '0' },
        }),
      ),
      rule(
        'implement',
        'Step continuation.implement',
        answer('continuation.implement', 'next', { work: { changes: 'none', tests: 'none' } }),
      ),
      rule(
        'review',
        'Step verification.review',
        answer('verification.review', 'next', { review: { criteria: [], problems: [] } }),
      ),
      rule('closure', 'Step closure.issue', answer('closure.issue', 'closing', closure)),
    ],
  };
}

/** The issue file to seed (runScenario's issueFile). */
export async function issueFile(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'no-change-issue-')), 'issue.md');
  await writeFile(path, ISSUE);
  return path;
}
