/** Which branches count as a fix made only in the tests (the pure rule; baseline.test runs it on a real branch). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedInTestsOnly } from '../../../../src/activities/conditions/baseline/fixed-in-tests-only.js';

const judge = (touched: string[], issueText?: string) =>
  fixedInTestsOnly({
    baseCommit: 'c'.repeat(40),
    fixed: ['t'],
    touched,
    ...(issueText === undefined ? {} : { issueText }),
  });

test('only test files (documentation aside) block; a source or build file changed does not', () => {
  assert.ok(judge(['tests/test.rs']));
  assert.ok(judge(['src/test/java/FooTest.java', 'README.md', 'docs/usage.md']));
  assert.equal(judge(['tests/test.rs', 'src/lib.rs']), undefined);
  assert.equal(judge(['test/a_test.go', 'CMakeLists.txt']), undefined, 'a build file is not documentation');
  assert.equal(judge(['tests/test_x.py', 'requirements.txt']), undefined);
  assert.equal(judge(['README.md']), undefined, 'no test file changed');
});

test('nothing fixed, or an issue naming a changed test file: no block', () => {
  assert.equal(fixedInTestsOnly({ baseCommit: 'c'.repeat(40), fixed: [], touched: ['tests/test.rs'] }), undefined);
  assert.equal(judge(['tests/test.rs'], 'The expected values in tests/test.rs are wrong'), undefined);
  assert.equal(judge(['src/test/java/FooTest.java'], 'FooTest.java expects the old format'), undefined);
  assert.ok(judge(['tests/test.rs'], 'i64::MIN is formatted wrong'));
});
