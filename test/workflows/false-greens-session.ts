/**
 * The repository and scripted models of issue 37's three false greens (and a fourth): main's last
 * commit broke `sum()`, so `sum adds two numbers` fails on the base, and the issue only
 * says the suite fails since the last commit (it names no test). The models follow
 * no-change-session's playbook and differ in what they do with the closing's retry prompt
 * or the implement step.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import { CLOSING, changesNothing } from './no-change-session.js';

const ISSUE = `---
title: The test suite fails since the last commit
state: open
labels: [bug]
---
\`npm test\` passed before the last commit on main; now it fails.
`;

export const FAILING_TEST = 'sum adds two numbers';
/** The no-op guard's retry prompt (prompts/steps/retry/issue/f_failed_no-change.md). */
export const NOTHING_CHANGED = 'completion check failed: nothing changed';
const WEAKENED = 'completion check failed: tests were weakened';
/** prompts/steps/retry/issue/f_failed_fixed-in-tests-only.md */
const TESTS_ONLY = 'completion check failed: only the tests changed';

const sumReturning = (expression: string): string =>
  `/** Adds two numbers. */\nexport function sum(a, b) {\n  return ${expression};\n}\n`;

/** main: `sum()` fixed, then broken again by a refactoring, the last commit. */
export async function regressionOnMain(repoPath: string): Promise<void> {
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.invalid', ...args], {
      cwd: repoPath,
      encoding: 'utf8',
    });
  await writeFile(join(repoPath, 'src', 'sum.js'), sumReturning('a + b'));
  git('commit', '-qam', 'sum adds');
  await writeFile(join(repoPath, 'src', 'sum.js'), sumReturning('[a, b].reduce((x, y) => x - y)'));
  git('commit', '-qam', 'Refactor sum with reduce');
}

export async function regressionIssueFile(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'false-green-issue-')), 'issue.md');
  await writeFile(path, ISSUE);
  return path;
}

const closing = (summary: string): SessionRule['respond'] => ({
  json: {
    stepId: 'closure.issue',
    status: 'completed',
    summary,
    next_action: { action: 'closing', reason: 'ok' },
    ...CLOSING,
  },
});
const bash = (command: string): SessionRule['respond'] => ({ toolUse: [{ name: 'bash', input: { command } }] });
const withFirst = (rules: SessionRule[], script: SessionScript): SessionScript => ({
  ...script,
  rules: [...rules, ...script.rules],
});

/** Changes nothing, ever; counts the retry prompts that name the failing test. */
export function neverChanges(): SessionScript {
  return withFirst(
    [
      {
        id: 'retry-names-test',
        when: { promptContains: [NOTHING_CHANGED, FAILING_TEST] },
        respond: closing('Nothing to change.'),
      },
    ],
    changesNothing('never changes', CLOSING),
  );
}

/** Changes nothing until a closing fails; fixes only when the retry prompt names the failing test. */
export function fixesAfterFailedCheck(): SessionScript {
  return withFirst(
    [
      {
        id: 'retry-fix',
        when: { promptContains: [NOTHING_CHANGED, FAILING_TEST], turn: 0 },
        times: 1,
        respond: bash("sed -i 's/x - y/x + y/' src/sum.js && git commit -qam 'Fix sum after the refactoring'"),
      },
      { id: 'retry-closing', when: { promptContains: NOTHING_CHANGED, turn: 1 }, respond: closing('Fixed sum().') },
    ],
    changesNothing('fixes after a failed check', CLOSING),
  );
}

/** Deletes the failing test instead of fixing the code, and keeps closing. */
export function deletesFailingTest(): SessionScript {
  return withFirst(
    [
      {
        id: 'implement-delete',
        when: { promptContains: 'Step continuation.implement', turn: 0 },
        respond: bash("git rm -q test/sum.test.js && git commit -qm 'Remove the failing test'"),
      },
      {
        id: 'retry-weakened',
        when: { promptContains: [WEAKENED, 'test/sum.test.js'] },
        respond: closing('The suite passes.'),
      },
    ],
    changesNothing('deletes the failing test', CLOSING),
  );
}

/** Rewrites the failing test's expected value to what the broken code returns, and adds a comment to the code so that "only the tests changed" does not hold. */
export function rewritesExpectedValueWithComment(): SessionScript {
  return withFirst(
    [
      {
        id: 'implement-rewrite',
        when: { promptContains: 'Step continuation.implement', turn: 0 },
        respond: bash(
          "sed -i 's/sum(2, 3), 5)/sum(2, 3), -1)/' test/sum.test.js && sed -i '1i // sum: reviewed' src/sum.js && git commit -qam 'Fix sum'",
        ),
      },
      {
        id: 'retry-tests-only',
        when: { promptContains: [TESTS_ONLY, 'src/sum.js', 'test/sum.test.js'] },
        respond: closing('The suite passes.'),
      },
    ],
    changesNothing('rewrites the expected value', CLOSING),
  );
}
