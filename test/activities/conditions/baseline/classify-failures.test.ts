/**
 * The classifier's three groups (regressions, pre-existing, fixed) and why each
 * pre-existing failure blocks or not: named by the issue, its file changed by the
 * branch, the mode.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyFailures } from '../../../../src/activities/conditions/baseline/classify-failures.js';

const base = {
  commit: 'c'.repeat(40),
  command: 'pytest',
  exitCode: 1,
  failedTests: ['tests/test_six.py::test_b', 'tests/test_other.py::test_x', 'tests/test_gone.py::test_y'],
};
const b = { name: 'tests/test_six.py::test_b', file: 'tests/test_six.py' };
const x = { name: 'tests/test_other.py::test_x', file: 'tests/test_other.py' };

test('fixed: failing on the base, not failing now; reported, never blocking', () => {
  const split = classifyFailures([x], base, 'ignore');
  assert.deepEqual(split.fixed, ['tests/test_six.py::test_b', 'tests/test_gone.py::test_y']);
  assert.equal(split.blocks, false);
  assert.match(split.reason, /only failures already on base c{12}: tests\/test_other\.py::test_x; fixed since base: /);
  assert.deepEqual(classifyFailures([], base, 'ignore').fixed, [], 'unnamed failures fix nothing');
});

test('an issue naming a test, by a short name or by its file, makes that failure block and says why', () => {
  const split = classifyFailures([b, x], base, 'ignore', {
    issueText: 'test_b in test_six.py fails since the last commit',
  });
  assert.equal(split.blocks, true);
  assert.deepEqual(split.preExisting, [{ ...b, blocks: 'named by the issue as "test_b"' }, x]);
  assert.match(
    split.reason,
    /still blocking: tests\/test_six\.py::test_b \(named by the issue as "test_b"\); fixed since base: tests\/test_gone\.py::test_y$/,
  );
  const byFile = classifyFailures([b], base, 'ignore', { issueText: 'Since yesterday test_six.py is red.' });
  assert.equal(byFile.preExisting[0]?.blocks, 'its file "test_six.py" is named by the issue');
});

test('general words about the suite name no test', () => {
  const split = classifyFailures([b, x], base, 'ignore', {
    issueText: 'The test suite fails since the last commit; tests are broken.',
  });
  assert.equal(split.blocks, false);
  assert.deepEqual(
    split.preExisting.map((t) => t.blocks),
    [undefined, undefined],
  );
});

test('a failure whose file the branch changed blocks, however the runner spells the path', () => {
  const split = classifyFailures([b, x], base, 'ignore', { touchedFiles: ['src/six.py', 'tests/test_six.py'] });
  assert.equal(split.blocks, true);
  assert.equal(split.preExisting[0]?.blocks, 'its file tests/test_six.py was changed by this branch');
  assert.equal(split.preExisting[1]?.blocks, undefined);
  const absolute = { name: 'sum › adds', file: '/w/repo/test/sum.test.js' };
  const js = { ...base, failedTests: ['sum › adds'] };
  assert.equal(classifyFailures([absolute], js, 'ignore', { touchedFiles: ['test/sum.test.js'] }).blocks, true);
  assert.equal(classifyFailures([absolute], js, 'ignore', { touchedFiles: ['test/my_sum.test.js'] }).blocks, false);
});

test('require-fixed: every pre-existing failure blocks; a more specific reason wins', () => {
  const plain = classifyFailures([b, x], base, 'require-fixed');
  assert.equal(plain.blocks, true);
  assert.match(plain.reason, /2 failure\(s\) already on base c{12}; baseline: require-fixed/);
  const named = classifyFailures([b, x], base, 'require-fixed', { issueText: 'fix test_x' });
  assert.deepEqual(
    named.preExisting.map((t) => t.blocks),
    ['baseline: require-fixed', 'named by the issue as "test_x"'],
  );
  assert.match(named.reason, /still blocking: .*test_x \(named by the issue as "test_x"\)/);
});

test('regressions block and the line counts the pre-existing failures that block too', () => {
  const fresh = { name: 'tests/test_new.py::test_n', file: 'tests/test_new.py' };
  const split = classifyFailures([fresh, b, x], base, 'ignore', { issueText: 'test_b fails' });
  assert.deepEqual(split.regressions, [fresh]);
  assert.match(
    split.reason,
    /^1 regression\(s\) \(not failing on base c{12}\), 2 failing on base too \(1 of them blocking\)/,
  );
});

test('a file that could not load on the base and still cannot is failing on base, as the preflight said; one that loaded there is a regression', () => {
  const load = (name: string, file?: string) => ({ name, ...(file ? { file } : {}), scope: 'load' as const });
  const a = load('tests/test_a.py', 'tests/test_a.py');
  const measured = { ...base, notLoading: [{ name: 'tests/test_a.py', file: 'tests/test_a.py' }] };
  const still = classifyFailures([a, x], measured, 'ignore');
  assert.deepEqual(still.regressions, []);
  assert.deepEqual(still.preExisting, [a, x]);
  assert.equal(still.blocks, false);
  assert.match(
    still.reason,
    /^only failures already on base c{12}: tests\/test_a\.py \(cannot load, as on the base\), /,
  );

  const broken = load('tests/test_c.py', 'tests/test_c.py');
  const regressed = classifyFailures([a, broken], measured, 'ignore');
  assert.deepEqual(regressed.regressions, [broken]);
  assert.equal(regressed.blocks, true);
  assert.match(
    regressed.reason,
    /^1 regression\(s\) \(not failing on base c{12}\), 1 failing on base too; cannot load now, loaded on base: tests\/test_c\.py/,
  );

  // jest names every load "Test suite failed to run": another file's is a regression.
  const jestBase = { ...base, failedTests: [], notLoading: [{ name: 'Test suite failed to run', file: 'a.test.js' }] };
  const other = load('Test suite failed to run', 'b.test.js');
  assert.deepEqual(classifyFailures([other], jestBase, 'ignore').regressions, [other]);
  assert.equal(classifyFailures([load('Test suite failed to run', './a.test.js')], jestBase, 'ignore').blocks, false);
  // A test failing on the base is no excuse for a load of the same name, nor a load for a test.
  assert.equal(
    classifyFailures([load('tests/test_other.py::test_x')], { ...base, notLoading: [] }, 'ignore').blocks,
    true,
  );
});
