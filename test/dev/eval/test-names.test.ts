/** Passing tests named from runner output, and the FAIL_TO_PASS / PASS_TO_PASS split of two runs. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { passedTests } from '../../../src/activities/conditions/test-reports/passed-tests.js';
import { namingCommand } from '../../../src/dev/eval/suite/suite-run.js';
import { declaredTests, passesIn, splitTests, type SuiteRun } from '../../../src/dev/eval/suite/test-verdicts.js';

test('mocha spec: full titles from the suite tree, up to "N passing"', () => {
  const output = [
    '> mocha --reporter spec test/',
    '',
    '  cookie.parse(str)',
    '    ✔ should parse cookie string to object',
    '    with "decode" option',
    '      ✓ should decode (2ms)',
    '    1) should fail here',
    '',
    '  2 passing (12ms)',
    '  1 failing',
    '  1) cookie.parse(str)',
    '       should fail here:',
  ].join('\n');
  assert.deepEqual(passedTests(output), [
    'cookie.parse(str) should parse cookie string to object',
    'cookie.parse(str) with "decode" option should decode',
  ]);
});

test('node TAP, cargo, go -v and pytest JUnit name their passing tests; plain go test names none', () => {
  assert.deepEqual(passedTests('ok 1 - adds\nnot ok 2 - subtracts\nok 3 - skipped one # SKIP\n'), ['adds']);
  assert.deepEqual(passedTests('test tests::adds ... ok\ntest tests::subs ... FAILED\n'), ['tests::adds']);
  assert.deepEqual(passedTests('=== RUN   TestA\n--- PASS: TestA (0.00s)\n    --- PASS: TestA/neg (0.00s)\n'), [
    'TestA',
    'TestA/neg',
  ]);
  assert.equal(passedTests('ok  \texample.com/m\t0.01s\n'), undefined);
  const junitXml =
    '<testsuite><testcase classname="tests.test_a" name="test_ok" file="tests/test_a.py"/>' +
    '<testcase classname="tests.test_a" name="test_bad" file="tests/test_a.py"><failure message="x">E</failure></testcase>' +
    '<testcase classname="tests.test_a.TestC" name="test_skip" file="tests/test_a.py"><skipped/></testcase></testsuite>';
  assert.deepEqual(passedTests('', { junitXml }), ['tests/test_a.py::test_ok']);
  const surefireXml = [
    '<testsuite name="demo.CalcTest"><testcase name="adds" classname="demo.CalcTest"/>' +
      '<testcase name="subtracts" classname="demo.CalcTest"><failure message="x"/></testcase></testsuite>',
  ];
  assert.deepEqual(passedTests('', { surefireXml }), ['demo.CalcTest#adds'], 'Maven: PASS_TO_PASS from Surefire');
});

const run = (over: Partial<SuiteRun>): SuiteRun => ({ ran: true, exitCode: 0, failures: [], ...over });

test('a test passes only when nothing says otherwise: named passes, or every failure named', () => {
  assert.equal(passesIn('TestA', run({ exitCode: 0 })), true, 'plain go test, exit 0');
  assert.equal(passesIn('TestA', run({ exitCode: 1, failures: [{ name: 'TestB' }] })), true);
  assert.equal(passesIn('TestA', run({ exitCode: 1 })), false, 'failures not named: unknown');
  assert.equal(passesIn('TestA', run({ exitCode: 1, failures: [{ name: 'example.com/m', scope: 'load' }] })), false);
  assert.equal(passesIn('tests/a.py::test_x', run({ passed: ['tests/a.py::test_y'] })), false, 'did not run');
  assert.equal(passesIn('test_x', run({ passed: ['tests/a.py::test_x'] })), true, 'a derived name');
  assert.equal(passesIn('TestA', run({ ran: false })), false, 'timed out');
});

test('the split: failing before (named, or declared by the test patch) and passing after', () => {
  const patch = [
    'diff --git a/calc_test.go b/calc_test.go',
    '@@ -10,3 +10,9 @@ func TestOld(t *testing.T) {',
    '+func TestNeg(t *testing.T) {',
    '+	if Abs(-2) != 2 { t.Fatal("abs") }',
    '+}',
  ].join('\n');
  const declared = declaredTests(patch);
  assert.deepEqual(declared, ['TestOld', 'TestNeg']);
  // The package did not build before the fix (Abs is new): only the declarations name its tests.
  const before = run({ exitCode: 2, failures: [{ name: 'example.com/calc', scope: 'load' }] });
  const after = run({ exitCode: 0 });
  assert.deepEqual(splitTests(before, after, declared), { failToPass: ['TestOld', 'TestNeg'], passToPass: [] });
  // A runner that names tests: a named failure turns, the rest passed both ways.
  const b2 = run({ exitCode: 1, failures: [{ name: 'clamp lowers' }], passed: ['clamp raises'] });
  const a2 = run({ passed: ['clamp raises', 'clamp lowers'] });
  assert.deepEqual(splitTests(b2, a2, []), { failToPass: ['clamp lowers'], passToPass: ['clamp raises'] });
});

test('a test hidden by a file or target that did not load before, passing after, failed before', () => {
  // cargo: the test target does not compile with only the test change (a macro declares the
  // tests, so no declaration names them); nothing ran, the after run names every test.
  const before = run({ exitCode: 101, failures: [{ name: 'itoa (test "test")', scope: 'load' }] });
  const after = run({ passed: ['test_u64_0', 'test_u128_max'] });
  assert.deepEqual(splitTests(before, after, []), { failToPass: ['test_u64_0', 'test_u128_max'], passToPass: [] });
  // pytest: one file fails to import; the other file's tests passed both ways.
  const b2 = run({
    exitCode: 2,
    failures: [{ name: 'tests/test_new.py', scope: 'load' }],
    passed: ['tests/test_old.py::test_a'],
  });
  const a2 = run({ passed: ['tests/test_old.py::test_a', 'tests/test_new.py::test_b'] });
  assert.deepEqual(splitTests(b2, a2, []), {
    failToPass: ['tests/test_new.py::test_b'],
    passToPass: ['tests/test_old.py::test_a'],
  });
  // Without a load failure, an unnamed test that did not pass before is not counted.
  const b3 = run({ exitCode: 1, failures: [], passed: ['tests/test_old.py::test_a'] });
  assert.deepEqual(splitTests(b3, a2, []).failToPass, []);
});

test('the eval runs plain go test with -v, so passing tests are named; other commands as they are', () => {
  assert.equal(namingCommand('go test ./...'), 'go test -v ./...');
  assert.equal(namingCommand('go test'), 'go test -v');
  assert.equal(namingCommand('go test -race ./...'), 'go test -v -race ./...');
  assert.equal(namingCommand('go test -v ./...'), 'go test -v ./...');
  assert.equal(namingCommand('go test -json ./...'), 'go test -json ./...');
  assert.equal(namingCommand('go test -vet=off ./...'), 'go test -v -vet=off ./...');
  assert.equal(namingCommand('cargo test --no-fail-fast'), 'cargo test --no-fail-fast');
  assert.equal(namingCommand('make test'), 'make test');
});
