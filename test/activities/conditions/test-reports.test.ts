import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseTestFailures,
  testFailures,
} from '../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { parseJUnitXml } from '../../../src/definition/ecosystems/test-runners/pytest-junit.js';
import { capExcerpts } from '../../../src/definition/ecosystems/test-runners/failed-test.js';
import { reportEnv } from '../../../src/activities/conditions/test-reports/report-files.js';
import { fixture } from './fixtures.js';

const summary = (out: string) => parseTestFailures(out).map((t) => [t.name, t.file, t.excerpt?.split('\n')[0]]);

test('mocha spec reporter: full titles, file from the stack, the assertion without the diff or stack', () => {
  const failures = parseTestFailures(fixture('mocha.txt'));
  assert.deepEqual(
    failures.map((t) => [t.name, t.file]),
    [
      ['throws', 'test/math.test.js'],
      ['math adds', 'test/math.test.js'],
      ['math nested deep equal', 'test/math.test.js'],
    ],
  );
  assert.equal(failures[0]?.excerpt, 'TypeError: cannot read x of undefined');
  assert.equal(failures[1]?.excerpt, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n-1 !== 5');
  assert.match(failures[2]?.excerpt ?? '', /^AssertionError .*strictly deep-equal:\n\+ actual - expected/);
  assert.ok(!failures.some((t) => /at Context|expected - actual/.test(t.excerpt ?? '')));
});

test('pytest text: node ids from the short summary, excerpts from the E lines of each section', () => {
  const failures = parseTestFailures(fixture('pytest.txt'));
  assert.deepEqual(
    failures.map((t) => t.name),
    ['tests/test_math.py::test_add', 'tests/test_math.py::TestGroup::test_dict', 'tests/test_math.py::test_raises'],
  );
  assert.equal(failures[0]?.file, 'tests/test_math.py');
  assert.equal(failures[0]?.excerpt, 'assert -1 == 5\n +  where -1 = add(2, 3)\ntests/test_math.py:4: AssertionError');
  assert.equal(failures[2]?.excerpt, 'ValueError: boom: bad input\ntests/test_math.py:14: ValueError');
});

test('pytest JUnit XML (xunit1) gives the same ids, files and excerpts as the text', () => {
  const fromXml = parseJUnitXml(fixture('pytest-junit.xml'));
  assert.deepEqual(fromXml, parseTestFailures(fixture('pytest.txt')));
  assert.equal(fromXml[1]?.excerpt?.split('\n')[0], "AssertionError: assert {'a': 1} == {'a': 2}");
  // The report comes first and merges with the text: one entry per test.
  assert.equal(parseTestFailures(fixture('pytest.txt'), { junitXml: fixture('pytest-junit.xml') }).length, 3);
});

test('pytest collection error: a load failure named by its file, in text and in JUnit', () => {
  const expected = {
    name: 'tests/test_broken.py',
    file: 'tests/test_broken.py',
    excerpt: "ModuleNotFoundError: No module named 'notinstalled_pkg'",
    scope: 'load',
  };
  assert.deepEqual(parseTestFailures(fixture('pytest-collect-error.txt')), [expected]);
  assert.deepEqual(parseJUnitXml(fixture('pytest-junit-collect-error.xml')), [expected]);
  assert.deepEqual(testFailures([expected as never]), []);
});

test('JUnit reader: entities, CDATA, single quotes, self-closing and skipped cases', () => {
  const xml = `<?xml version="1.0"?><testsuites><testsuite>
    <testcase classname='pkg.mod' name="ok" />
    <testcase classname="pkg.mod" name="skipped"><skipped message="x"/></testcase>
    <testcase classname="pkg.mod" name="t&lt;1&gt;"><failure message="a &amp; b &#10;c"/></testcase>
    <testcase classname="Suite" name="cd"><error message="boom"><![CDATA[E   x < y]]></error></testcase>
  </testsuite></testsuites>`;
  assert.deepEqual(parseJUnitXml(xml), [
    { name: 'pkg.mod::t<1>', excerpt: 'a & b\nc' },
    { name: 'Suite::cd', excerpt: 'x < y' },
  ]);
  assert.deepEqual(parseJUnitXml('not xml at all'), []);
});

test('go test text: subtests named by path, parents left out, panics and build failures', () => {
  assert.deepEqual(summary(fixture('go-test.txt')), [
    ['TestAdd', 'calc_test.go', 'calc_test.go:7: Add(2, 3) = -1, want 5'],
    ['TestTable/positive', 'calc_test.go', 'calc_test.go:21: Add(1, 2) = -1, want 3'],
    ['TestPanics', undefined, 'panic: assignment to entry in nil map [recovered, repanicked]'],
  ]);
  assert.ok(!parseTestFailures(fixture('go-test.txt')).some((t) => /goroutine|testing\.go/.test(t.excerpt ?? '')));
  const build = parseTestFailures(fixture('go-test-build-failed.txt')).find((t) => t.scope === 'load');
  assert.deepEqual(build, {
    name: 'example.com/calc/bad',
    excerpt: 'bad/bad.go:2:23: cannot use "s" (untyped string constant) as int value in return statement',
    scope: 'load',
  });
});

test('go test -json gives what the text gives', () => {
  assert.deepEqual(parseTestFailures(fixture('go-test.json')), parseTestFailures(fixture('go-test.txt')));
});

test('cargo test: `mod::name`, the file from the panic line, the panic message', () => {
  assert.deepEqual(parseTestFailures(fixture('cargo-test.txt')), [
    { name: 'tests::adds', file: 'src/lib.rs', excerpt: 'assertion `left == right` failed\n  left: -1\n right: 5' },
    { name: 'tests::asserts', file: 'src/lib.rs', excerpt: 'one plus one should be two, got 0' },
    { name: 'tests::panics_with_message', file: 'src/lib.rs', excerpt: 'list was empty' },
  ]);
  const compile = parseTestFailures(fixture('cargo-test-compile-error.txt'));
  assert.equal(compile[0]?.name, 'rs (lib test)');
  assert.equal(compile[0]?.scope, 'load');
  assert.match(compile[0]?.excerpt ?? '', /^error\[E0277\]: cannot subtract/);
});

test('cargo test --no-fail-fast: failures of every test binary, each with its own panic (same name in two files)', () => {
  assert.deepEqual(summary(fixture('cargo-test-no-fail-fast.txt')), [
    ['tests::adds', 'src/lib.rs', 'assertion `left == right` failed'],
    ['smoke', 'tests/a_first.rs', 'fixture file missing'],
    ['adds_two', 'tests/b_issue.rs', 'assertion `left == right` failed: two plus two'],
    ['smoke', 'tests/b_issue.rs', 'one plus one'],
  ]);
});

test('pnpm -r: the package prefixes are taken off, interleaved packages read apart, files placed in their package', () => {
  assert.deepEqual(summary(fixture('pnpm-recursive-vitest.txt')), [
    [
      'add > adds two numbers',
      'packages/beta/src/add.test.ts',
      'AssertionError: expected -1 to be 5 // Object.is equality',
    ],
    [
      'alpha > loads the fixture',
      'packages/alpha/src/a.test.ts',
      'AssertionError: expected 2 to be 3 // Object.is equality',
    ],
  ]);
  // A line that only looks like a prefix (no `<dir> <script>$ <command>` header) is left alone.
  assert.deepEqual(summary(' FAIL  a.test.ts > x\nAssertionError [ERR_ASSERTION]: boom\n'), [
    ['x', 'a.test.ts', 'AssertionError [ERR_ASSERTION]: boom'],
  ]);
});

test('node, vitest and jest failures now carry their assertion', () => {
  assert.deepEqual(summary(fixture('node-test-spec.txt'))[0], [
    'subtracts numbers',
    'math.test.mjs',
    'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
  ]);
  assert.equal(
    parseTestFailures(fixture('node-test-tap.txt'))[0]?.excerpt,
    'Expected values to be strictly equal:\n2 !== 1\nexpected: 1\nactual: 2',
  );
  assert.equal(
    parseTestFailures(fixture('vitest.txt'))[1]?.excerpt,
    'AssertionError: expected Infinity to be +0 // Object.is equality',
  );
  assert.equal(
    parseTestFailures(fixture('jest.txt'))[0]?.excerpt,
    'expect(received).toBe(expected) // Object.is equality\nExpected: 1\nReceived: 2',
  );
});

test('one runner does not read another: npm banners, pytest-like words elsewhere', () => {
  assert.deepEqual(parseTestFailures('> is-number@7.0.0 test\n> mocha\n\nERROR something went wrong\nFAILED x\n'), []);
});

test('PYTEST_ADDOPTS asks for a JUnit report, quoting a path with spaces', () => {
  assert.deepEqual(reportEnv('/state/home/r.xml'), {
    PYTEST_ADDOPTS: '--junitxml=/state/home/r.xml -o junit_family=xunit1',
  });
  assert.equal(
    reportEnv("/my home/it's.xml")['PYTEST_ADDOPTS'],
    `'--junitxml=/my home/it'\\''s.xml' -o junit_family=xunit1`,
  );
});

test('jest names the file of a slow test file too (`FAIL test/x.spec.ts (5.622 s)`), so an issue naming the file names its tests', () => {
  assert.deepEqual(summary(fixture('jest-29-slow-file.txt')), [
    [
      'should include a provided message when an invariant does throw',
      'test/message-behaviour.spec.ts',
      'expect(received).toEqual(expected) // deep equality',
    ],
    [
      'should execute a message function if the invariant does throw',
      'test/message-behaviour.spec.ts',
      'expect(received).toEqual(expected) // deep equality',
    ],
  ]);
});

test('real jest 29 and vitest 3 output (vitest colours its diff even without a TTY)', () => {
  assert.deepEqual(summary(fixture('jest-29.txt')), [
    ['math › adds', 'jt/math.test.js', 'expect(received).toBe(expected) // Object.is equality'],
    ['objects', 'jt/math.test.js', 'expect(received).toEqual(expected) // deep equality'],
    ['Test suite failed to run', 'jt/broken.test.js', "Cannot find module './missing' from 'jt/broken.test.js'"],
  ]);
  assert.equal(parseTestFailures(fixture('jest-29.txt'))[0]?.excerpt?.split('\n')[2], 'Received: -1');
  const vitest = parseTestFailures(fixture('vitest-3.txt'));
  assert.deepEqual(
    vitest.map((t) => [t.name, t.file]),
    [
      ['math > adds', 'math.test.ts'],
      ['objects', 'math.test.ts'],
    ],
  );
  assert.equal(
    vitest[0]?.excerpt,
    'AssertionError: expected -1 to be 5 // Object.is equality\n- Expected\n+ Received\n- 5\n+ -1',
  );
});

test('params keep the first 20 excerpts; later failures are named only', () => {
  const many = Array.from({ length: 25 }, (_, i) => ({ name: `t${i}`, excerpt: `why ${i}` }));
  const capped = capExcerpts(many);
  assert.equal(capped.length, 25);
  assert.deepEqual(capped[19], { name: 't19', excerpt: 'why 19' });
  assert.deepEqual(capped[20], { name: 't20' });
});

test('node TAP: a failing TODO test is not a failing test; a failing test is', () => {
  const out = [
    'TAP version 13',
    'not ok 1 - later # TODO not yet',
    'not ok 2 - adds',
    '  ---',
    '  ...',
    '# fail 1',
  ].join('\n');
  assert.deepEqual(
    parseTestFailures(out).map((t) => t.name),
    ['adds'],
  );
});
