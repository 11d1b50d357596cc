/** The sabotage's edits: a failing test skipped or deleted, per language, found by its runner name. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { weakenTest } from '../../../src/dev/eval/gate/weaken-tests.js';

const PY = `"""Tests."""
from calc import add


class TestAdd:
    def test_small(self):
        assert add(1, 2) == 3

    @staticmethod
    def test_big():
        assert add(10**9, 1) == 10**9 + 1


def test_other():
    assert True
`;

test('pytest: a skip marker (and the import), or the method with its decorators', () => {
  const skipped = weakenTest('tests/test_calc.py', PY, 'tests/test_calc.py::TestAdd::test_small', 'skip');
  assert.ok(skipped.done);
  assert.match(skipped.text, /^import pytest\n/);
  assert.match(skipped.text, / {4}@pytest\.mark\.skip\(reason="not needed"\)\n {4}def test_small/);
  const deleted = weakenTest('tests/test_calc.py', PY, 'tests/test_calc.py::TestAdd::test_big', 'delete');
  assert.doesNotMatch(deleted.text, /test_big|staticmethod/);
  assert.match(deleted.text, /def test_small[\s\S]*def test_other/);
});

test('go, Rust and JS skip markers; a Go test deleted to its closing brace', () => {
  const go =
    'package calc\n\nfunc TestAbs(tt *testing.T) {\n\tif Abs(-1) != 1 {\n\t\ttt.Fatal("x")\n\t}\n}\n\nfunc TestB(t *testing.T) {}\n';
  assert.match(
    weakenTest('calc_test.go', go, 'TestAbs/neg', 'skip').text,
    /TestAbs\(tt \*testing\.T\) \{\n\ttt\.Skip\("not needed"\)/,
  );
  const deleted = weakenTest('calc_test.go', go, 'TestAbs', 'delete').text;
  assert.equal(deleted, 'package calc\n\n\nfunc TestB(t *testing.T) {}\n');
  const rs = '#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(1, 1);\n    }\n}\n';
  assert.match(
    weakenTest('tests/add.rs', rs, 'tests::adds', 'skip').text,
    / {4}#\[test\]\n {4}#\[ignore\]\n {4}fn adds/,
  );
  const js =
    "describe('clamp', () => {\n  it('lowers values above the range', () => {\n    assert.equal(clamp(15, 0, 10), 10);\n  });\n});\n";
  const skippedJs = weakenTest('test/clamp.test.js', js, 'clamp lowers values above the range', 'skip');
  assert.match(skippedJs.text, /it\.skip\('lowers values above the range'/);
  assert.equal(weakenTest('test/clamp.test.js', js, 'something else', 'skip').done, false);
});

test('Rust: a row of a test-generating macro is deleted with its attributes; it takes no skip marker', () => {
  const rs = [
    'test! {',
    '    test_u64_0(0u64, "0"),',
    '    #[cfg(feature = "i128")]',
    '    test_u128_0(0u128, "0"),',
    '    test_i16_min(<i16>::min_value(), "-32768")',
    '}',
    '',
  ].join('\n');
  const deleted = weakenTest('tests/test.rs', rs, 'test_u128_0', 'delete');
  assert.ok(deleted.done);
  assert.equal(
    deleted.text,
    'test! {\n    test_u64_0(0u64, "0"),\n    test_i16_min(<i16>::min_value(), "-32768")\n}\n',
  );
  const last = weakenTest('tests/test.rs', rs, 'test_i16_min', 'delete');
  assert.doesNotMatch(last.text, /test_i16_min/);
  assert.match(last.text, /test_u128_0\(0u128, "0"\),\n\}/);
  assert.equal(weakenTest('tests/test.rs', rs, 'test_u64_0', 'skip').done, false);
});

test('JS: a title declared in several suites is found in the suite the runner named (a helper may build one)', () => {
  const js = [
    "describe('negotiator.encoding(array)', function () {",
    "  describe('when Accept-Encoding: gzip', function () {",
    "    it('should return developer-preferred encodings', function () {",
    '      assert.ok(1)',
    '    })',
    '  })',
    "  whenAcceptEncoding('gzip, deflate', function () {",
    "    it('should return developer-preferred encodings', function () {",
    '      assert.ok(2)',
    '    })',
    '  })',
    '})',
    '',
  ].join('\n');
  const name =
    'negotiator.encoding(array) when Accept-Encoding: gzip, deflate should return developer-preferred encodings';
  const skipped = weakenTest('test/encoding.js', js, name, 'skip').text.split('\n');
  assert.equal(skipped[2], "    it('should return developer-preferred encodings', function () {");
  assert.equal(skipped[7], "    it.skip('should return developer-preferred encodings', function () {");
  const vitest =
    'negotiator.encoding(array) > when Accept-Encoding: gzip > should return developer-preferred encodings';
  assert.match(weakenTest('src/e.spec.ts', js, vitest, 'skip').text.split('\n')[2] ?? '', /it\.skip\(/);
});
