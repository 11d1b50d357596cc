/**
 * The failure pattern of a test condition whose command exited as if it passed (or failed
 * only as on the base) but ran fewer tests than on the base commit, or none that anything
 * could see (activities/conditions/baseline/tests-ran.ts). Its params: `baseCommit`,
 * `testsRunOnBase`, `testsRun` (absent when nothing said). PURE.
 */
export const TESTS_NOT_RUN_PATTERN = 'tests-not-run';

/**
 * The failure pattern of a test condition whose tests red on the base pass now because
 * the tests changed: the branch changed only test files, or they pass with its tests on
 * the base's code too (activities/conditions/baseline/fixed-in-tests-only.ts). Its params:
 * `baseCommit`, `fixed` (names), `testFiles`, and `codeFiles` in the second case.
 */
export const FIXED_IN_TESTS_ONLY_PATTERN = 'fixed-in-tests-only';

/**
 * The issue label that says the issue is about the tests themselves (a wrong expected
 * value): then a fix in the tests alone is what it asks for. A label, not the issue's
 * words: a bug report names the failing test's file as often as not ("the test in
 * test/sum.test.js fails"), and a label is set by whoever triages the issue.
 */
export const TESTS_ONLY_LABEL = 'agent:tests-only';
