import { test } from 'node:test';
import assert from 'node:assert/strict';
import { environmentProblem, unrecoverableReason } from '../../../src/activities/conditions/unrecoverable.js';
import { fixture } from './fixtures.js';

const exit1 = (stderr: string, stdout = '') => unrecoverableReason({ exitCode: 1, stdout, stderr });

test('exit codes 127 and 126 and permission errors stay unrecoverable', () => {
  assert.match(unrecoverableReason({ exitCode: 127, stdout: '', stderr: '' }) ?? '', /command not found/);
  assert.match(unrecoverableReason({ exitCode: 126, stdout: '', stderr: '' }) ?? '', /not executable/);
  assert.match(exit1('Error: EACCES: permission denied, open x') ?? '', /permission denied/);
});

test('a permission error beside failing tests the runner named is a test failure, not the environment', () => {
  // A test of error handling (or a script the tests start) prints it; the runner ran.
  const tap =
    'TAP version 13\nnot ok 1 - reads a locked file\n  ---\n  error: "EACCES: permission denied, open \'/x\'"\n  ...\n1..1\n';
  assert.equal(exit1('', tap), undefined);
  assert.equal(exit1('tools/p.sh: 4: cannot create /tmp/x: Permission denied\n', tap), undefined);
});

test('a tool that reports a missing runner with exit 1 is an environment failure', () => {
  const cases: [string, RegExp][] = [
    // npm 11 (real): the script's shell cannot find the runner.
    ['\n> is-number@7.0.0 test\n> mocha\n\nsh: 1: mocha: not found\n', /command not found/],
    ['bash: line 1: go: command not found\n', /command not found/],
    // pnpm 9 and yarn 1 (their documented messages).
    [' ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command "vitest" not found\n', /command not found/],
    ['error Command "mocha" not found.\n', /command not found/],
    ['Usage Error: command not found: jest\n', /command not found/],
    // npx (real, npm 11) and its older wording.
    ['npm error npx canceled due to missing packages and no YES option: ["mocha@12.0.3"]\n', /command not found/],
    ['npm ERR! could not determine executable to run\n', /npx could not find/],
    [
      ' ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL\nLocal package.json exists, but node_modules missing, did you mean to install?\n',
      /node_modules missing/,
    ],
    ['npm error Missing script: "test"\n', /no such script/],
    // python -m pytest without pytest (real).
    ['/root/.pyenv/versions/3.11.7/bin/python3: No module named pytest\n', /runner is not installed/],
    // pytest --cov without pytest-cov (real, pytest 9).
    [
      'ERROR: usage: python -m pytest [options] [file_or_dir] [file_or_dir] [...]\npython -m pytest: error: unrecognized arguments: --cov=x\n',
      /rejects its arguments/,
    ],
    // go outside a module and cargo without a manifest (real).
    [
      'pattern ./...: directory prefix . does not contain main module or its selected dependencies\nFAIL\t./... [setup failed]\n',
      /go\.mod/,
    ],
    ['error: could not find `Cargo.toml` in `/tmp/x` or any parent directory\n', /Cargo\.toml/],
    ['error: no such command: `nextest`\n', /no such subcommand/],
  ];
  for (const [stderr, reason] of cases) assert.match(exit1(stderr) ?? '(recoverable)', reason, stderr);
  assert.deepEqual(environmentProblem('x\nsh: 1: mocha: not found\ny'), {
    reason: 'command not found; install it (or the project dependencies) or fix the validator command',
    line: 'sh: 1: mocha: not found',
  });
});

test('failing tests are not environment failures, even on a missing module of the project', () => {
  // Real outputs: named test failures, and pytest collecting a module that imports what is missing.
  for (const name of [
    'mocha.txt',
    'pytest.txt',
    'go-test.txt',
    'cargo-test.txt',
    'jest.txt',
    'pytest-collect-error.txt',
  ]) {
    assert.equal(exit1('', fixture(name)), undefined, name);
  }
  // A test that shells out to a missing tool still ran: its runner named the failure.
  const spec = '✖ calls the cli (1.2ms)\n  Error: Command failed\nsh: 1: mytool: not found\n';
  assert.ok(environmentProblem(spec) === undefined && exit1('', spec) === undefined);
  assert.notEqual(exit1('', 'sh: 1: mytool: not found\n'), undefined);
  assert.equal(unrecoverableReason({ exitCode: 0, stdout: 'sh: 1: x: not found', stderr: '' }), undefined);
});
