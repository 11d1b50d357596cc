/** Which branches count as a fix made only in the tests (the pure rule; tests-alone.test runs it on real branches). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedInTestsOnly } from '../../../../src/activities/conditions/baseline/fixed-in-tests-only.js';
import { isDocumentation } from '../../../../src/activities/conditions/baseline/changed-files.js';

const judge = (tests: string[], code: string[] = [], options: { testsOnlyIssue?: boolean; alone?: string[] } = {}) =>
  fixedInTestsOnly({
    baseCommit: 'c'.repeat(40),
    fixed: ['t', 'u'],
    changed: { tests, code },
    ...(options.alone === undefined ? {} : { fixedByTestsAlone: options.alone }),
    testsOnlyIssue: options.testsOnlyIssue ?? false,
  });

test('only test files changed: blocks, naming every fixed test', () => {
  const verdict = judge(['tests/test.rs']);
  assert.match(
    verdict?.line ?? '',
    /no longer fail \(t, u\) and the branch changed only test files \(tests\/test\.rs\)/,
  );
  assert.deepEqual(verdict?.params['fixed'], [{ name: 't' }, { name: 'u' }]);
  assert.equal(verdict?.params['codeFiles'], undefined);
  assert.equal(judge([], ['src/lib.rs']), undefined, 'no test file changed: the code fixed them');
});

test('code changed too: blocks only for the tests that pass with the base code as well', () => {
  assert.equal(judge(['tests/test.rs'], ['src/lib.rs']), undefined, 'not run: nothing told as fixed by the tests');
  assert.equal(judge(['tests/test.rs'], ['src/lib.rs'], { alone: [] }), undefined, 'the code fixed them');
  const verdict = judge(['tests/test.rs'], ['src/lib.rs'], { alone: ['u'] });
  assert.match(
    verdict?.line ?? '',
    /no longer fail \(u\), and they pass as well with this branch's tests on the base's code \(src\/lib\.rs as on the base\): the test changes made them pass \(tests\/test\.rs\)/,
  );
  assert.deepEqual(verdict?.params['codeFiles'], ['src/lib.rs']);
  assert.deepEqual(verdict?.params['fixed'], [{ name: 'u' }]);
});

test('nothing fixed, or an issue labelled agent:tests-only: no block', () => {
  const none = fixedInTestsOnly({
    baseCommit: 'c'.repeat(40),
    fixed: [],
    changed: { tests: ['t.rs'], code: [] },
    testsOnlyIssue: false,
  });
  assert.equal(none, undefined);
  assert.equal(judge(['tests/test.rs'], [], { testsOnlyIssue: true }), undefined);
  assert.equal(judge(['tests/test.rs'], ['src/lib.rs'], { alone: ['t'], testsOnlyIssue: true }), undefined);
  assert.match(judge(['tests/test.rs'])?.line ?? '', /carries the label agent:tests-only/);
});

test('documentation is neither a test nor code; build files (.txt too) are code', () => {
  for (const doc of ['README.md', 'docs/usage.md', 'doc/x.txt', 'CHANGELOG', 'notes.rst'])
    assert.ok(isDocumentation(doc), doc);
  for (const code of ['CMakeLists.txt', 'requirements.txt', 'src/lib.rs', 'Makefile'])
    assert.equal(isDocumentation(code), false, code);
});
