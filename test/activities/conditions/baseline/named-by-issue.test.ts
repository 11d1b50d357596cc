/**
 * The names a failing test answers to (test-names) and when an issue's text names it
 * (named-by-issue): each name form, matched as a whole word, and the near misses that
 * must not match (a name inside a longer identifier, another file).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  mentions,
  namedByIssue,
  sameFile,
  testFile,
  testNames,
} from '../../../../src/activities/conditions/baseline/named-by-issue.js';

test('a test answers to its full id, last :: segment, parametrized base, path segment and title part', () => {
  assert.deepEqual(testNames('test_six.py::test_b'), ['test_six.py::test_b', 'test_b']);
  assert.deepEqual(testNames('tests/test_m.py::TestC::test_p[1.5-x]'), [
    'tests/test_m.py::TestC::test_p[1.5-x]',
    'test_p[1.5-x]',
    'test_p',
    'tests/test_m.py::TestC::test_p',
  ]);
  assert.deepEqual(testNames('calc::tests::adds_two'), ['calc::tests::adds_two', 'adds_two']);
  assert.deepEqual(testNames('TestTable/positive'), ['TestTable/positive', 'positive']);
  assert.deepEqual(testNames('com.example.CalcTest.testAdd'), ['com.example.CalcTest.testAdd', 'testAdd']);
  assert.deepEqual(testNames('math › sum › returns the sum'), ['math › sum › returns the sum', 'returns the sum']);
  assert.deepEqual(testNames('sum > adds'), ['sum > adds', 'adds']);
  assert.deepEqual(testNames('tests/test_calc.py'), ['tests/test_calc.py'], 'a file is not split at its extension');
  assert.deepEqual(testNames('mod::it'), ['mod::it'], 'derived names under three characters are dropped');
  assert.deepEqual(testNames('math nested deep equal'), ['math nested deep equal']);
});

test('a test file: reported, or the head of a pytest-style id; normalised; compared by path suffix', () => {
  assert.equal(testFile({ name: 'x', file: 'file:///w/repo/test/sum.test.js' }), '/w/repo/test/sum.test.js');
  assert.equal(testFile({ name: './tests/test_six.py::test_b' }), 'tests/test_six.py');
  assert.equal(testFile({ name: 'calc::tests::adds' }), undefined, 'a Rust module is not a file');
  assert.equal(sameFile('/w/repo/test/sum.test.js', 'test/sum.test.js'), true);
  assert.equal(sameFile('test_six.py', 'tests/test_six.py'), true);
  assert.equal(sameFile('tests/test_six.py', 'tests/test_sixty.py'), false);
  assert.equal(sameFile('/w/repo/test/my_sum.test.js', 'sum.test.js'), false);
});

test('a name matches as a whole word, never inside a longer identifier', () => {
  assert.equal(mentions('test_b in test_six.py fails since the last commit', 'test_b'), true);
  assert.equal(mentions('see `test_b`.', 'test_b'), true);
  assert.equal(mentions('test_six.py::test_b is red', 'test_b'), true);
  assert.equal(mentions('test_b[3] fails', 'test_b'), true);
  assert.equal(mentions('CalcTest.testAdd fails', 'testAdd'), true);
  for (const text of ['test_bar fails', 'my_test_b fails', 'test_b2 fails', 'test_b.py fails', '$test_b']) {
    assert.equal(mentions(text, 'test_b'), false, text);
  }
  assert.equal(mentions('Test_B fails', 'test_b'), false, 'identifiers are case-sensitive');
  assert.equal(mentions('It Returns The Sum wrongly', 'returns the sum'), true, 'titles are not');
  assert.equal(mentions('it returns the summary', 'returns the sum'), false);
});

test('an issue names a test by any of its names or by its file, and says which', () => {
  const b = { name: 'tests/test_six.py::test_b[2]', file: 'tests/test_six.py' };
  assert.deepEqual(namedByIssue('test_b in test_six.py fails since the last commit', b), {
    text: 'test_b',
    kind: 'test',
  });
  assert.deepEqual(namedByIssue('test_six.py fails since the last commit', b), { text: 'test_six.py', kind: 'file' });
  assert.deepEqual(namedByIssue('see tests/test_six.py', b), { text: 'tests/test_six.py', kind: 'file' });
  assert.equal(namedByIssue('the test suite fails since the last commit', b), undefined);
  assert.equal(namedByIssue('test_sixty.py and my-test_six.py and test_six.pyc fail', b), undefined);
  const js = { name: 'sum › adds negatives', file: '/w/repo/test/sum.test.js' };
  assert.deepEqual(namedByIssue('`sum.test.js` is red', js), { text: 'sum.test.js', kind: 'file' });
  assert.equal(namedByIssue('repo/test is red', js), undefined, 'an absolute path is matched by its base name only');
  assert.deepEqual(namedByIssue('cargo test: adds_two panics', { name: 'calc::tests::adds_two' }), {
    text: 'adds_two',
    kind: 'test',
  });
  assert.equal(namedByIssue('adds_two_more panics', { name: 'calc::tests::adds_two' }), undefined);
});

test('a Surefire test (Class#method) is named by its method, as an issue writes Class.method', () => {
  assert.deepEqual(testNames('org.json.junit.CookieTest#escapeString'), [
    'org.json.junit.CookieTest#escapeString',
    'escapeString',
  ]);
  assert.deepEqual(testNames('demo.ParamTest#positive(int)[2]').slice(-1), ['positive']);
  // A stranger's issue named the failing test so, and the closing excused it as unrelated.
  const issue = '`Cookie.escape("a;b")` returns `a;b`. `CookieTest.escapeString` fails (`mvn test`).';
  assert.deepEqual(namedByIssue(issue, { name: 'org.json.junit.CookieTest#escapeString' }), {
    text: 'escapeString',
    kind: 'test',
  });
  assert.equal(namedByIssue(issue, { name: 'org.json.junit.CookieTest#escapeStringTwice' }), undefined);
});

test('a parametrized test is named by its own parameters or its bare name, not by another parametrization', () => {
  const spaced = { name: 'tests/test_parse.py::test_tokenize[comment2 on section]' };
  assert.equal(namedByIssue('test_tokenize[comment2] fails on a comment', spaced), undefined);
  assert.deepEqual(namedByIssue('test_tokenize[comment2 on section] fails', spaced), {
    text: 'test_tokenize[comment2 on section]',
    kind: 'test',
  });
  assert.deepEqual(namedByIssue('test_tokenize fails for comments', spaced), { text: 'test_tokenize', kind: 'test' });
  const b = { name: 'tests/test_six.py::test_b[1]' };
  assert.equal(namedByIssue('test_b[2] is red', b), undefined);
  assert.deepEqual(namedByIssue('test_b[1] is red', b), { text: 'test_b[1]', kind: 'test' });
});
