import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseChangedFiles,
  parseStagedFiles,
  parseUnstagedFiles,
  parseUntrackedFiles,
} from '../../../src/activities/conditions/parse-git-status.js';
import { parseTestOutput } from '../../../src/activities/conditions/parse-test-output.js';
import { parseTypeErrors } from '../../../src/activities/conditions/parse-type-errors.js';
import { parseLintErrors } from '../../../src/activities/conditions/parse-lint-errors.js';
import { parseFormatOutput } from '../../../src/activities/conditions/parse-format-output.js';
import { EXTRACTOR_NAMES, extract } from '../../../src/activities/conditions/extractors.js';
import { fixture } from './fixtures.js';

test('git status --porcelain: changed, untracked, staged, unstaged (renames, quoting)', () => {
  const out = fixture('git-status-porcelain.txt');
  assert.deepEqual(parseChangedFiles(out), [
    'src/app.ts',
    'src/staged.ts',
    'src/both.ts',
    'src/new.ts',
    'src/renamed.ts',
    'src/deleted.ts',
  ]);
  assert.deepEqual(parseUntrackedFiles(out), ['notes.txt', 'tricky "name".txt', 'café.md']);
  assert.deepEqual(parseStagedFiles(out), ['src/staged.ts', 'src/both.ts', 'src/new.ts', 'src/renamed.ts']);
  assert.deepEqual(parseUnstagedFiles(out), ['src/app.ts', 'src/both.ts', 'src/deleted.ts']);
  assert.deepEqual(parseChangedFiles(''), []);
});

test('node test runner, spec reporter: failed tests with files, suites and recap duplicates left out', () => {
  assert.deepEqual(parseTestOutput(fixture('node-test-spec.txt')), [
    { name: 'subtracts numbers', file: 'math.test.mjs' },
    { name: 'top level fails', file: 'math.test.mjs' },
  ]);
});

test('node test runner, TAP reporter: `not ok` tests, not the suite that failed through them', () => {
  assert.deepEqual(parseTestOutput(fixture('node-test-tap.txt')), [
    { name: 'subtracts numbers', file: '/home/dev/project/test/math.test.mjs' },
    { name: 'top level fails', file: '/home/dev/project/test/math.test.mjs' },
  ]);
});

test('vitest: FAIL recaps give suite path and file', () => {
  assert.deepEqual(parseTestOutput(fixture('vitest.txt')), [
    { name: 'math > subtracts', file: 'src/math.test.ts' },
    { name: 'divides by zero', file: 'src/math.test.ts' },
  ]);
});

test('vitest: `×` tree lines when there is no recap', () => {
  const out = ' ❯ src/a.test.ts (2 tests | 1 failed) 3ms\n   ✓ works 1ms\n   × breaks 2ms\n     → expected 1 to be 2\n';
  assert.deepEqual(parseTestOutput(out), [{ name: 'breaks', file: 'src/a.test.ts' }]);
});

test('jest: `●` blocks under `FAIL path`, including suites that failed to run', () => {
  assert.deepEqual(parseTestOutput(fixture('jest.txt')), [
    { name: 'math › subtracts', file: 'src/math.test.js' },
    { name: 'divides by zero', file: 'src/math.test.js' },
    { name: 'Test suite failed to run', file: 'src/broken.test.js' },
  ]);
});

test('passing output has no failed tests', () => {
  assert.deepEqual(parseTestOutput('✔ adds (0.5ms)\nℹ tests 1\nℹ pass 1\nℹ fail 0\n'), []);
});

test('tsc plain and pretty (coloured) formats', () => {
  const expected = [
    {
      file: 'src/a.ts',
      line: 1,
      column: 14,
      code: 'TS2322',
      message: "Type 'string' is not assignable to type 'number'.",
    },
    {
      file: 'src/a.ts',
      line: 2,
      column: 49,
      code: 'TS2339',
      message: "Property 'foo' does not exist on type 'string'.",
    },
  ];
  assert.deepEqual(parseTypeErrors(fixture('tsc-plain.txt')), expected);
  assert.deepEqual(parseTypeErrors(fixture('tsc-pretty.txt')), expected);
  assert.deepEqual(parseTypeErrors("error TS5083: Cannot read file '/x/tsconfig.json'."), [
    { file: '', line: 0, column: 0, code: 'TS5083', message: "Cannot read file '/x/tsconfig.json'." },
  ]);
});

test('eslint stylish and unix formats give the same problems', () => {
  const expected = [
    {
      file: '/home/dev/project/src/app.ts',
      line: 3,
      column: 7,
      severity: 'error',
      rule: '@typescript-eslint/no-unused-vars',
      message: "'unused' is assigned a value but never used",
    },
    {
      file: '/home/dev/project/src/app.ts',
      line: 10,
      column: 1,
      severity: 'warning',
      rule: 'no-console',
      message: 'Unexpected console statement',
    },
    {
      file: '/home/dev/project/src/app.ts',
      line: 14,
      column: 15,
      severity: 'error',
      rule: '',
      message: "Parsing error: ';' expected",
    },
    {
      file: '/home/dev/project/src/util.ts',
      line: 2,
      column: 10,
      severity: 'error',
      rule: 'no-unused-vars',
      message: "'x' is defined but never used",
    },
  ];
  assert.deepEqual(parseLintErrors(fixture('eslint-stylish.txt')), expected);
  assert.deepEqual(parseLintErrors(fixture('eslint-unix.txt')), expected);
});

test('prettier --check: unformatted and unparsable files', () => {
  assert.deepEqual(parseFormatOutput(fixture('prettier-check.txt')), [
    'src/app.ts',
    'src/components/Button.tsx',
    'src/broken.ts',
  ]);
  assert.deepEqual(parseFormatOutput('Checking formatting...\nAll matched files use Prettier code style!\n'), []);
});

test('extractors by name, with upstream aliases; unknown → undefined', () => {
  const ctx = { stdout: fixture('tsc-plain.txt'), stderr: 'oops\n', exitCode: 2 };
  assert.deepEqual(extract('files', ctx), ['src/a.ts']);
  assert.equal((extract('errors', ctx) as unknown[]).length, 2);
  assert.equal(extract('stderr', ctx), 'oops');
  assert.equal(extract('exitCode', ctx), 2);
  assert.equal(extract('parseBranchName', ctx), undefined);
  assert.ok(EXTRACTOR_NAMES.includes('parseChangedFiles'));
});

test('generateDiff (and its alias diff) is the format checker’s own report, without colour; empty when silent', () => {
  const report =
    '\u001b[31mfrom /repo/src/a.ts:\u001b[0m\n1 | -const a=1\n1 | +const a = 1;\n\nerror: Found 1 not formatted file\n';
  const ctx = { stdout: '', stderr: report, exitCode: 1 };
  assert.equal(
    extract('generateDiff', ctx),
    'from /repo/src/a.ts:\n1 | -const a=1\n1 | +const a = 1;\n\nerror: Found 1 not formatted file',
  );
  assert.equal(extract('diff', ctx), extract('generateDiff', ctx));
  assert.equal(extract('generateDiff', { stdout: '', stderr: '', exitCode: 0 }), '');
  assert.equal((extract('diff', { stdout: 'x'.repeat(5000), stderr: '', exitCode: 1 }) as string).length, 4000);
});
