/**
 * A scripted session whose first fix is wrong: the implement step makes `wrong` (it
 * breaks a test that passes on main), the closure claims success, and the harness's
 * tests validator fails on the regression. The closure's retry prompt must then name
 * that test (`failingTest`, as the runner names it): only a retry prompt that contains
 * it gets the right fix (`right`, applied on top of the wrong one), a commit and the
 * closing answer. A retry prompt that does not name it falls through to the plain
 * closure rule, which closes again without fixing anything, until the attempts run out.
 */
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import { fixSession } from '../helpers/fix-session.js';

export interface WrongThenRightSpec {
  readonly name: string;
  readonly path: string;
  /** The wrong fix, on the file as committed on main. */
  readonly wrong: { readonly old: string; readonly new: string };
  /** The right fix, on the file as the wrong fix left it. */
  readonly right: { readonly old: string; readonly new: string };
  readonly testCommand: string;
  /** The name the retry prompt must give the test the wrong fix broke. */
  readonly failingTest: string;
}

/** The rule that answers only a retry prompt naming the failing test. */
export const RETRY_NAMES_TEST = 'retry-names-failing-test';

/** The heading of the closure's retry prompt after failing tests (prompts/steps/retry/issue/f_failed_test-failed.md). */
const TESTS_RETRY = 'completion check failed: tests';

export function wrongThenRightSession(spec: WrongThenRightSpec): SessionScript {
  const first = fixSession({
    name: spec.name,
    fix: { path: spec.path, ...spec.wrong },
    testCommand: spec.testCommand,
  });
  const retry: SessionRule[] = [
    {
      id: RETRY_NAMES_TEST,
      when: { promptContains: [TESTS_RETRY, spec.failingTest], turn: 0 },
      times: 1,
      respond: {
        toolUse: [
          {
            name: 'str_replace_based_edit_tool',
            input: { command: 'str_replace', path: spec.path, old_str: spec.right.old, new_str: spec.right.new },
          },
        ],
      },
    },
    {
      id: 'retry-commit',
      when: { promptContains: TESTS_RETRY, turn: 1 },
      respond: { toolUse: [{ name: 'bash', input: { command: `git add -A && git commit -q -m 'Fix #1 properly'` } }] },
    },
    {
      id: 'retry-closing',
      when: { promptContains: TESTS_RETRY, turn: 2 },
      respond: {
        json: {
          stepId: 'closure.issue',
          status: 'completed',
          summary: 'Fixed the regression.',
          next_action: { action: 'closing', reason: 'the failing test is fixed' },
          verdict: 'done',
          evidence: { git_status: '', tests: `${spec.testCommand}: pass`, commands: [] },
        },
      },
    },
  ];
  return { ...first, name: `wrong then right: ${spec.name}`, rules: [...retry, ...first.rules] };
}
