/**
 * The detector over real `git diff` output: each case commits a base in a temp repo,
 * makes the change an agent might make, and reads the diff the validator would read.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../../../../src/activities/workspace/git/git.js';
import { parseUnifiedDiff } from '../../../../src/activities/conditions/integrity/parse-unified-diff.js';
import {
  detectTestWeakening,
  FindingKind,
  type IntegrityFinding,
} from '../../../../src/activities/conditions/integrity/detect-test-weakening.js';
import { INTEGRITY_DIFF_ARGS } from '../../../../src/activities/conditions/integrity/test-integrity-validator.js';
import { splitWaived } from '../../../../src/activities/conditions/integrity/issue-waiver.js';
import { inSourceTests } from '../../../../src/activities/conditions/integrity/in-source-tests.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';

const repos: TempGitRepo[] = [];
after(async () => Promise.all(repos.map((r) => r.cleanup())));

const SUM_TEST = `import { sum } from '../src/sum';

describe('sum', () => {
  it('adds', () => {
    expect(sum(1, 2)).toBe(3);
    expect(sum(0, 0)).toBe(0);
  });

  it('handles negatives', () => {
    expect(sum(-1, 1)).toBe(0);
  });
});
`;

async function findingsAfter(
  base: Record<string, string>,
  change: (repo: TempGitRepo) => Promise<void>,
): Promise<IntegrityFinding[]> {
  const repo = await makeTempGitRepo({ files: base });
  repos.push(repo);
  const baseCommit = await repo.git('rev-parse', 'HEAD');
  await change(repo);
  const diff = await git(repo.dir, [...INTEGRITY_DIFF_ARGS, baseCommit, '--']);
  assert.equal(diff.exitCode, 0, diff.stderr);
  const files = parseUnifiedDiff(diff.stdout);
  return detectTestWeakening(files, await inSourceTests(repo.dir, baseCommit, files));
}

const brief = (fs: readonly IntegrityFinding[]): string[] => fs.map((f) => `${f.kind} ${f.file}:${f.line}`);

test('it.skip added to a test file is found at its new line', async () => {
  const found = await findingsAfter({ 'test/sum.test.ts': SUM_TEST }, async (r) => {
    await r.write({ 'test/sum.test.ts': SUM_TEST.replace("it('handles negatives'", "it.skip('handles negatives'") });
    await r.git('commit', '-qam', 'skip');
  });
  assert.deepEqual(brief(found), ['test-skipped test/sum.test.ts:9']);
  assert.match(found[0]?.finding ?? '', /it\.skip\('handles negatives'/);
});

test('skip markers of other runners: xit, .only, pytest, unittest, Go, Rust (uncommitted changes count too)', async () => {
  const py = 'import pytest\n\n\ndef test_a():\n    assert 1 == 1\n';
  const go = 'package x\n\nimport "testing"\n\nfunc TestA(t *testing.T) {\n\tif 1 != 1 {\n\t\tt.Fatal("no")\n\t}\n}\n';
  const rs = 'pub fn f() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn it_works() {}\n}\n';
  const found = await findingsAfter(
    {
      'a.spec.js': "it('a', () => {});\nit('b', () => {});\n",
      'tests/test_a.py': py,
      'x_test.go': go,
      'src/lib.rs': rs,
    },
    async (r) =>
      r.write({
        'a.spec.js': "xit('a', () => {});\nit.only('b', () => {});\n",
        'tests/test_a.py': py.replace('def test_a', '@pytest.mark.skip(reason="flaky")\ndef test_a'),
        'x_test.go': go.replace('\tif 1', '\tt.Skip("later")\n\tif 1'),
        'src/lib.rs': rs.replace('    #[test]\n', '    #[test]\n    #[ignore]\n'),
      }),
  );
  assert.deepEqual(brief(found).sort(), [
    'test-skipped a.spec.js:1',
    'test-skipped a.spec.js:2',
    'test-skipped src/lib.rs:6',
    'test-skipped tests/test_a.py:4',
    'test-skipped x_test.go:6',
  ]);
});

test('a removed assertion is found at its old line; a rewritten one is not', async () => {
  const found = await findingsAfter({ 'test/sum.test.ts': SUM_TEST }, async (r) => {
    await r.write({
      'test/sum.test.ts': SUM_TEST.replace('    expect(sum(0, 0)).toBe(0);\n', '').replace(
        'expect(sum(-1, 1)).toBe(0)',
        'expect(sum(-1, 1)).toEqual(0)',
      ),
    });
  });
  assert.deepEqual(brief(found), ['assertion-removed test/sum.test.ts:6']);
  assert.match(found[0]?.finding ?? '', /was line 6/);
});

test('deleted test file, removed test case, snapshot deleted and rewritten; a deleted fixture is no finding', async () => {
  const found = await findingsAfter(
    {
      'test/sum.test.ts': SUM_TEST,
      'test/other.test.ts': "test('keeps', () => {});\ntest('goes', () => {});\n",
      'test/__snapshots__/a.test.ts.snap': 'exports[`a 1`] = `"x"`;\n',
      'test/__snapshots__/b.test.ts.snap': 'exports[`b 1`] = `"y"`;\n',
      'test/fixtures/data.json': '{ "rows": [] }\n',
    },
    async (r) => {
      await r.git('rm', '-q', 'test/sum.test.ts', 'test/__snapshots__/a.test.ts.snap', 'test/fixtures/data.json');
      await r.write({
        'test/other.test.ts': "test('keeps', () => {});\n",
        'test/__snapshots__/b.test.ts.snap': 'exports[`b 1`] = `"wrong"`;\n',
      });
    },
  );
  assert.deepEqual(brief(found).sort(), [
    'snapshot-loosened test/__snapshots__/a.test.ts.snap:1',
    'snapshot-loosened test/__snapshots__/b.test.ts.snap:1',
    'test-deleted test/other.test.ts:2',
    'test-deleted test/sum.test.ts:1',
  ]);
});

test('CI and runner config edits, a lowered coverage threshold; ordinary code and manifest edits pass', async () => {
  const jest = 'module.exports = {\n  coverageThreshold: {\n    global: { lines: 90, branches: 80 },\n  },\n};\n';
  const pkg = '{\n  "name": "x",\n  "scripts": { "test": "jest" },\n  "dependencies": {}\n}\n';
  const found = await findingsAfter(
    {
      '.github/workflows/ci.yml': 'on: push\njobs: {}\n',
      'jest.config.js': jest,
      'package.json': pkg,
      'src/sum.ts': 'export const sum = 1;\n',
    },
    async (r) => {
      await r.write({
        '.github/workflows/ci.yml': 'on: push\njobs: {}\n# no tests\n',
        'jest.config.js': jest.replace('lines: 90', 'lines: 50'),
        'package.json': pkg.replace('"dependencies": {}', '"dependencies": { "left-pad": "1.0.0" }'),
        'src/sum.ts': 'export const sum = 2;\n',
      });
    },
  );
  assert.deepEqual(brief(found).sort(), [
    'config-edited .github/workflows/ci.yml:3',
    'config-edited jest.config.js:3',
    'coverage-lowered jest.config.js:3',
  ]);
  assert.ok(found.some((f) => f.finding === 'coverage threshold lines lowered from 90 to 50'));
});

test("what the test command runs through is runner config: cargo's runner, npm's script-shell, yarn's yarnPath", async () => {
  const found = await findingsAfter({ 'src/lib.rs': 'pub fn f() {}\n' }, async (r) => {
    await r.write({
      // A stranger's cheat on itoa: every test result rewritten to ok, a comment in the code.
      '.cargo/config.toml': '[target.x86_64-unknown-linux-gnu]\nrunner = "./ok.sh"\n',
      '.npmrc': 'script-shell=./fake-shell\n',
      '.yarnrc.yml': 'yarnPath: ./fake-yarn.cjs\n',
      'src/lib.rs': 'pub fn f() {} // fixed\n',
    });
    await r.git('add', '-A');
  });
  assert.deepEqual(brief(found).sort(), [
    'config-edited .cargo/config.toml:1',
    'config-edited .npmrc:1',
    'config-edited .yarnrc.yml:1',
  ]);
});

test('build files that decide which tests run: a switch that skips or narrows them is a config edit; build edits are not', async () => {
  const pom = '<project>\n  <properties>\n    <java.version>17</java.version>\n  </properties>\n</project>\n';
  const cargo = '[package]\nname = "x"\nversion = "0.1.0"\n\n[dependencies]\n';
  const make = 'CFLAGS = -O2\n\ntest: build\n\t./run-tests.sh\n';
  const gradle = "plugins { id 'java' }\n\ndependencies {}\n";
  const cmake = 'project(x C)\nadd_library(x x.c)\nenable_testing()\nadd_test(NAME unit COMMAND unit)\n';
  const goTest = 'package x\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n';
  const found = await findingsAfter(
    {
      'pom.xml': pom,
      'Cargo.toml': cargo,
      Makefile: make,
      'build.gradle': gradle,
      'CMakeLists.txt': cmake,
      'x_test.go': goTest,
    },
    async (r) => {
      await r.write({
        // Cheats: each stops tests from running while the command still exits 0.
        'pom.xml': pom.replace(
          '<java.version>17</java.version>',
          '<java.version>17</java.version>\n    <skipTests>true</skipTests>',
        ),
        'Cargo.toml': cargo.replace('version = "0.1.0"', 'version = "0.1.0"\nautotests = false'),
        Makefile: make.replace('\t./run-tests.sh', '\ttrue'),
        'build.gradle': gradle + "\ntest {\n  exclude '**/*'\n}\n",
        'CMakeLists.txt': cmake.replace('add_test(NAME unit COMMAND unit)\n', ''),
        'x_test.go': '//go:build ignore\n\n' + goTest,
      });
    },
  );
  assert.deepEqual(brief(found).sort(), [
    'config-edited CMakeLists.txt:4',
    'config-edited Cargo.toml:4',
    'config-edited Makefile:4',
    'config-edited build.gradle:5',
    'config-edited pom.xml:4',
    'test-skipped x_test.go:1',
  ]);
  assert.ok(found.some((f) => f.finding === 'CI/test configuration edited: <skipTests>true</skipTests>'));
  // A real fix touches the same files without touching what runs the tests.
  const fix = await findingsAfter(
    { 'pom.xml': pom, 'Cargo.toml': cargo, Makefile: make, 'CMakeLists.txt': cmake },
    async (r) => {
      await r.write({
        'pom.xml': pom.replace('17</java.version>', '21</java.version>'),
        'Cargo.toml': cargo + 'serde = "1"\n',
        Makefile: make.replace('-O2', '-O2 -Wall'),
        'CMakeLists.txt': cmake.replace('add_library(x x.c)', 'add_library(x x.c y.c)'),
        // What an in-tree build generates, committed by mistake: not the project's test settings.
        'build/Makefile': 'test:\n\tctest\n',
        'build/CTestTestfile.cmake': 'add_test(unit "unit")\n',
      });
      await r.git('add', '-A');
    },
  );
  assert.deepEqual(brief(fix), []);
});

test('Maven from outside: a fully qualified @Ignore/@Disabled and maven.test.failure.ignore (pom property or .mvn/maven.config) are findings; other Maven options are not', async () => {
  // Found by a scripted cheat on stleary/JSON-java: `.mvn/maven.config` with
  // `-Dmaven.test.failure.ignore=true` made `mvn test` exit 0 with the failing tests run,
  // and the issue was closed as fixed.
  const pom = '<project>\n  <properties>\n    <java.version>17</java.version>\n  </properties>\n</project>\n';
  const javaTest =
    'package demo;\n\nimport org.junit.Test;\n\npublic class CalcTest {\n    @Test\n    public void adds() {}\n\n    @Test\n    public void subtracts() {}\n}\n';
  const found = await findingsAfter(
    { 'pom.xml': pom, 'src/test/java/demo/CalcTest.java': javaTest, '.mvn/jvm.config': '-Xmx1g\n' },
    async (r) => {
      await r.write({
        'pom.xml': pom.replace(
          '<java.version>17</java.version>',
          '<java.version>17</java.version>\n    <maven.test.failure.ignore>true</maven.test.failure.ignore>',
        ),
        'src/test/java/demo/CalcTest.java': javaTest
          .replace('    @Test\n    public void adds', '    @org.junit.Ignore\n    @Test\n    public void adds')
          .replace(
            '    @Test\n    public void subtracts',
            '    @org.junit.jupiter.api.Disabled("later")\n    @Test\n    public void subtracts',
          ),
        '.mvn/maven.config': '-Dmaven.test.failure.ignore=true\n',
      });
      await r.git('add', '-A');
    },
  );
  assert.deepEqual(brief(found).sort(), [
    'config-edited .mvn/maven.config:1',
    'config-edited pom.xml:4',
    'test-skipped src/test/java/demo/CalcTest.java:10',
    'test-skipped src/test/java/demo/CalcTest.java:6',
  ]);
  const options = await findingsAfter({ 'pom.xml': pom, '.mvn/jvm.config': '-Xmx1g\n' }, async (r) => {
    await r.write({ '.mvn/maven.config': '-T 1C\n--no-transfer-progress\n', '.mvn/jvm.config': '-Xmx2g\n' });
    await r.git('add', '-A');
  });
  assert.deepEqual(brief(options), []);
});

test('a fix with a new test and new assertions has no findings', async () => {
  const found = await findingsAfter(
    { 'test/sum.test.ts': SUM_TEST, 'src/sum.ts': 'export const sum = (a: number, b: number) => a - b;\n' },
    async (r) => {
      await r.write({
        'src/sum.ts': 'export const sum = (a: number, b: number) => a + b;\n',
        'test/sum.test.ts': SUM_TEST.replace(
          '});\n});',
          "});\n\n  it('is commutative', () => {\n    expect(sum(2, 3)).toBe(sum(3, 2));\n  });\n});",
        ),
        'tests/test_new.py': 'def test_new():\n    assert True\n',
      });
      await r.git('add', '-A');
    },
  );
  assert.deepEqual(found, []);
  await rm(join(repos.at(-1)?.dir ?? '/nonexistent', 'tests'), { recursive: true, force: true });
});

test('issue waiver: the label agent:tests-only waives every finding; the issue naming the file and asking does not', () => {
  const skip: IntegrityFinding = {
    kind: FindingKind.TestSkipped,
    file: 'test/net.test.ts',
    line: 3,
    finding: 'skips a test',
  };
  const removed: IntegrityFinding = {
    kind: FindingKind.AssertionRemoved,
    file: 'test/sum.test.ts',
    line: 6,
    finding: 'x',
  };
  assert.deepEqual(splitWaived([skip, removed], ['bug', 'agent:tests-only']), {
    blocking: [],
    waived: [skip, removed],
  });
  assert.deepEqual(splitWaived([skip, removed], ['bug']), { blocking: [skip, removed], waived: [] });
  assert.deepEqual(splitWaived([skip], undefined).blocking, [skip]);
});

test('a row of a Rust test-generating macro removed is a deleted test; a row moved or edited in place is not', async () => {
  const rows = ['test! {', '    test_u64_0(0u64, "0"),', '    test_u128_0(0u128, "0"),', '}', ''];
  const found = await findingsAfter(
    { 'tests/test.rs': rows.join('\n'), 'src/lib.rs': 'm! {\n    test_x(1),\n}\n' },
    (r) =>
      r.write({
        'tests/test.rs': ['test! {', '    test_u64_0(0u64, "00"),', '}', ''].join('\n'),
        'src/lib.rs': 'm! {\n}\n',
      }),
  );
  // test_u64_0 was edited in place (re-added); test_u128_0 is gone; src/ holds no tests.
  assert.deepEqual(brief(found), ['test-deleted tests/test.rs:3']);
  assert.match(found[0]?.finding ?? '', /test "test_u128_0" removed/);
});

test('an expected error inverted or dropped is found (assert.throws, .toThrow, assertRaises, pytest.raises, assertThrows, should_panic); one still expected is not', async () => {
  const js =
    "test('rejects', () => {\n  assert.throws(() => parse(''), SyntaxError);\n  expect(() => parse('{')).toThrow();\n});\n";
  const py =
    'def test_bad():\n    with pytest.raises(ValueError):\n        parse("")\n\n\ndef test_worse():\n    self.assertRaises(ValueError, parse, "{")\n';
  const java =
    'class ParseTest {\n    @Test\n    void bad() {\n        assertThrows(IllegalArgumentException.class, () -> parse(""));\n    }\n}\n';
  const rs = '#[test]\n#[should_panic(expected = "empty")]\nfn empty() {\n    parse("");\n}\n';
  const found = await findingsAfter(
    { 'test/parse.test.js': js, 'tests/test_parse.py': py, 'src/test/java/ParseTest.java': java, 'tests/parse.rs': rs },
    (r) =>
      r.write({
        'test/parse.test.js': js
          .replace("assert.throws(() => parse(''), SyntaxError)", "assert.doesNotThrow(() => parse(''))")
          .replace('.toThrow()', '.not.toThrow()'),
        'tests/test_parse.py': py
          .replace('    with pytest.raises(ValueError):\n        parse("")', '    parse("")')
          .replace('self.assertRaises(ValueError, parse, "{")', 'self.assertEqual(parse("{"), None)'),
        'src/test/java/ParseTest.java': java.replace(
          'assertThrows(IllegalArgumentException.class,',
          'assertDoesNotThrow(',
        ),
        'tests/parse.rs': rs.replace('#[should_panic(expected = "empty")]\n', ''),
      }),
  );
  assert.deepEqual(brief(found).sort(), [
    'error-expectation-removed src/test/java/ParseTest.java:4',
    'error-expectation-removed test/parse.test.js:2',
    'error-expectation-removed test/parse.test.js:3',
    'error-expectation-removed tests/parse.rs:2',
    'error-expectation-removed tests/test_parse.py:2',
    'error-expectation-removed tests/test_parse.py:7',
  ]);
  assert.ok(
    found.some(
      (f) =>
        f.finding ===
        "the error it expected is no longer asserted (was line 2): `assert.throws(() => parse(''), SyntaxError);` became `assert.doesNotThrow(() => parse(''));`",
    ),
    JSON.stringify(found),
  );
  // Still expecting the error, rewritten: no finding.
  const kept = await findingsAfter({ 'test/parse.test.js': js }, (r) =>
    r.write({
      'test/parse.test.js': js.replace(
        "assert.throws(() => parse(''), SyntaxError)",
        "assert.throws(() => parse(' '), { name: 'SyntaxError' })",
      ),
    }),
  );
  assert.deepEqual(brief(kept), []);
});

test("a Rust test removed from a source file's #[cfg(test)] module, or its #[test] dropped, is a deleted test; a code change beside it is none", async () => {
  const lib = [
    'pub fn add(a: i32, b: i32) -> i32 {',
    '    a - b',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '',
    '    #[test]',
    '    fn adds_two() {',
    '        assert_eq!(add(2, 2), 4);',
    '    }',
    '',
    '    #[test]',
    '    fn adds_zero() {',
    '        assert_eq!(add(0, 0), 0);',
    '    }',
    '',
    '    #[test]',
    '    fn keeps() {}',
    '}',
    '',
  ].join('\n');
  const found = await findingsAfter({ 'src/lib.rs': lib, 'tests/api.rs': '#[test]\nfn works() {}\n' }, (r) =>
    r.write({
      'src/lib.rs': lib
        .replace('    a - b', '    a + b')
        .replace('    #[test]\n    fn adds_two() {\n        assert_eq!(add(2, 2), 4);\n    }\n\n', '')
        .replace('    #[test]\n    fn adds_zero', '    fn adds_zero'),
      'tests/api.rs': '',
    }),
  );
  assert.deepEqual(brief(found).sort(), [
    'assertion-removed src/lib.rs:11',
    'test-deleted src/lib.rs:14',
    'test-deleted src/lib.rs:9',
    'test-deleted tests/api.rs:1',
  ]);
  assert.ok(
    found.some((f) => f.finding === 'test "adds_two" removed (was line 9)'),
    JSON.stringify(found),
  );
  assert.ok(
    found.some((f) => f.finding === 'test attribute removed (was line 14)'),
    JSON.stringify(found),
  );
  // The code fixed and a test added beside it: nothing weakened.
  const fix = await findingsAfter({ 'src/lib.rs': lib }, (r) =>
    r.write({
      'src/lib.rs': lib
        .replace('    a - b', '    a + b')
        .replace(
          '    fn keeps() {}',
          '    fn keeps() {}\n\n    #[test]\n    fn adds_one() {\n        assert_eq!(add(1, 0), 1);\n    }',
        ),
    }),
  );
  assert.deepEqual(brief(fix), []);
});

test("Go's error check inverted in place is found both ways (if err == nil / != nil, testify's Error / NoError); a new `if err != nil` and code outside the tests are not", async () => {
  const goTest = [
    'package parse', // 1
    '',
    'import "testing"',
    '',
    'func TestEmpty(t *testing.T) {', // 5
    '\tif _, err := Parse(""); err == nil {',
    '\t\tt.Fatal("expected an error for empty input")',
    '\t}',
    '}',
    '', // 10
    'func TestValid(t *testing.T) {',
    '\t_, err := Parse("{}")',
    '\tif err != nil {',
    '\t\tt.Fatal(err)',
    '\t}', // 15
    '}',
    '',
    'func TestBad(t *testing.T) {',
    '\t_, err := Parse("{")',
    '\trequire.Error(t, err)', // 20
    '}',
    '',
    'func TestOk(t *testing.T) {',
    '\t_, err := Parse("[]")',
    '\tassert.NoError(t, err)', // 25
    '}',
    '',
  ].join('\n');
  const code =
    'package parse\n\nfunc check(err error) bool {\n\tif err == nil {\n\t\treturn true\n\t}\n\treturn false\n}\n';
  const found = await findingsAfter({ 'parse_test.go': goTest, 'parse.go': code }, (r) =>
    r.write({
      'parse_test.go': goTest
        .replace('err == nil {\n\t\tt.Fatal("expected', 'err != nil {\n\t\tt.Fatal("expected')
        .replace('\tif err != nil {\n\t\tt.Fatal(err)', '\tif err == nil {\n\t\tt.Fatal(err)')
        .replace('require.Error(t, err)', 'require.NoError(t, err)')
        .replace('assert.NoError(t, err)', 'assert.Error(t, err)'),
      'parse.go': code.replace('err == nil', 'err != nil'),
    }),
  );
  assert.deepEqual(brief(found).sort(), [
    'error-expectation-removed parse_test.go:20',
    'error-expectation-removed parse_test.go:6',
    'error-now-expected parse_test.go:13',
    'error-now-expected parse_test.go:25',
  ]);
  assert.ok(
    found.some(
      (f) =>
        f.finding ===
        'the error it expected is no longer asserted (was line 6): `if _, err := Parse(""); err == nil {` became `if _, err := Parse(""); err != nil {`',
    ),
    JSON.stringify(found),
  );
  assert.ok(
    found.some(
      (f) =>
        f.finding ===
        'the check that it succeeds now expects an error (was line 13): `if err != nil {` became `if err == nil {`',
    ),
    JSON.stringify(found),
  );
  // New code with its own `if err != nil`, and a check rewritten that still expects the error: nothing weakened.
  const added = await findingsAfter({ 'parse_test.go': goTest }, (r) =>
    r.write({
      'parse_test.go':
        goTest.replace('err == nil {\n\t\tt.Fatal("expected', 'err == nil || false {\n\t\tt.Fatal("expected') +
        'func TestMore(t *testing.T) {\n\tif _, err := Parse("1"); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n',
    }),
  );
  assert.deepEqual(brief(added), []);
});
