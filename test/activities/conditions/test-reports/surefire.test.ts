/**
 * Maven Surefire's failures: from its XML reports (exact: nested classes, parameterized
 * cases), else from the console of Surefire 3 (plain and `-q`) and 2.x, else from the
 * recap; javac's errors as load failures. Every source names a test `Class#method`, so
 * a baseline from one matches the other. The report files are read only when this run
 * wrote them.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  parseTestFailures,
  testFailures,
} from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { surefireReports } from '../../../../src/activities/conditions/test-reports/surefire-report-files.js';
import { passedInSurefireXml } from '../../../../src/definition/ecosystems/test-runners/surefire-xml.js';
import { fixture } from '../fixtures.js';

const REPORTS = fileURLToPath(new URL('../../../fixtures/validator-output/surefire-reports/', import.meta.url));
const xmlReports = async (): Promise<string[]> =>
  Promise.all((await readdir(REPORTS)).sort().map((name) => readFile(path.join(REPORTS, name), 'utf8')));

const named = (output: string, surefireXml?: string[]) =>
  parseTestFailures(output, surefireXml ? { surefireXml } : {}).map((t) => [t.name, t.excerpt?.split('\n')[0]]);

test('Surefire 3 console, plain and -q: Class#method with the exception line and the test frame', () => {
  const expected = [
    ['demo.CalcTest#subtracts', 'org.opentest4j.AssertionFailedError: expected: <1> but was: <5>'],
    ['demo.DivTest#divides', 'java.lang.ArithmeticException: / by zero'],
  ];
  assert.deepEqual(named(fixture('surefire-3-junit5.txt')), expected);
  assert.deepEqual(named(fixture('surefire-3-junit5-quiet.txt')), expected);
  const [first] = parseTestFailures(fixture('surefire-3-junit5.txt'));
  assert.equal(first?.excerpt?.split('\n')[1], 'at demo.CalcTest.subtracts(CalcTest.java:15)');
  assert.ok(!/AssertionFailureBuilder/.test(first?.excerpt ?? ''), 'no frames of the assertion library');
});

test('Surefire 2.x console: `method(Class)` lines give the same Class#method form', () => {
  assert.deepEqual(named(fixture('maven-test-failures.txt')), [
    ['example.CalcTest#subtracts', 'java.lang.AssertionError: expected:<1> but was:<2>'],
  ]);
});

test('XML reports: nested classes and parameterized cases exactly; the console is then not read', async () => {
  const xml = await xmlReports();
  const fromXml = [
    ['demo.CalcTest#subtracts', 'org.opentest4j.AssertionFailedError: expected: <1> but was: <5>'],
    ['demo.ParamTest#named', 'java.lang.NullPointerException: Cannot invoke "Object.toString()" because "o" is null'],
    [
      'demo.ParamTest#positive(int)[2]',
      'org.opentest4j.AssertionFailedError: n=2 ==> expected: <true> but was: <false>',
    ],
    ['demo.ParamTest$Inner#deep', 'org.opentest4j.AssertionFailedError: deep fails'],
  ];
  assert.deepEqual(named(fixture('surefire-3-junit5-nested.txt'), xml), fromXml);
  assert.deepEqual(named('', xml), fromXml);
  // The console alone cannot see the nested class; every other name is the same.
  const fromConsole = named(fixture('surefire-3-junit5-nested.txt'));
  assert.deepEqual(
    fromConsole.map((t) => t[0]),
    fromXml.map((t) => t[0]).map((n) => n?.replace('$Inner', '')),
  );
  assert.deepEqual(passedInSurefireXml(xml), ['demo.CalcTest#adds', 'demo.ParamTest#positive(int)[1]']);
  const [, npe] = parseTestFailures('', { surefireXml: xml });
  assert.equal(npe?.excerpt?.split('\n')[1], 'at demo.ParamTest.named(ParamTest.java:8)');
});

test('the recap when no per-test line is there: simple class names resolved through the headers', () => {
  const recap = fixture('surefire-3-junit5.txt')
    .split('\n')
    .filter((l) => !/Time elapsed: [\d.]+ s <<< (FAILURE|ERROR)!$/.test(l))
    .join('\n');
  assert.deepEqual(named(recap), [
    ['demo.CalcTest#subtracts', 'expected: <1> but was: <5>'],
    ['demo.DivTest#divides', 'Arithmetic / by zero'],
  ]);
  const old =
    'Running demo.CalcTest\nTests run: 1, Failures: 1, Errors: 0, Skipped: 0\n\nResults :\n\n' +
    'Failed tests:   subtracts(demo.CalcTest): expected:<1> but was:<2>\n  adds(demo.CalcTest): boom\n\n';
  assert.deepEqual(named(old), [
    ['demo.CalcTest#subtracts', 'expected:<1> but was:<2>'],
    ['demo.CalcTest#adds', 'boom'],
  ]);
  assert.deepEqual(named('Failures:\n  1) something else\n'), [], 'not Maven output');
});

test('javac errors: one load failure per file, from src/ on; an offline resolution failure names nothing', () => {
  const failures = parseTestFailures(fixture('maven-test-compile-error.txt'));
  assert.deepEqual(
    failures.map((f) => [f.name, f.scope]),
    [['src/test/java/demo/DivTest.java', 'load']],
  );
  assert.equal(
    failures[0]?.excerpt,
    'src/test/java/demo/DivTest.java:10: cannot find symbol\nsymbol:   method zero()\nlocation: class demo.Calc',
  );
  assert.deepEqual(testFailures(parseTestFailures(fixture('maven-offline-surefire-provider.txt'))), []);
});

test('report files: only TEST-*.xml this run wrote, in every module, and only in a Maven project', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'surefire-reports-'));
  try {
    const write = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), text);
    };
    await write('target/surefire-reports/TEST-a.RootTest.xml', 'root');
    await write('core/target/surefire-reports/TEST-b.CoreTest.xml', 'core');
    await write('core/target/surefire-reports/b.CoreTest.txt', 'not a report');
    await write('core/target/surefire-reports/TEST-b.OldTest.xml', 'stale');
    await write('core/src/test/resources/target/surefire-reports/TEST-c.xml', 'a resource');
    const old = new Date(Date.now() - 60_000);
    await utimes(path.join(dir, 'core/target/surefire-reports/TEST-b.OldTest.xml'), old, old);
    const started = Date.now() - 1000;
    assert.deepEqual(await surefireReports(dir, started), [], 'no pom.xml');
    await write('pom.xml', '<project/>');
    assert.deepEqual((await surefireReports(dir, started)).sort(), ['core', 'root']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
