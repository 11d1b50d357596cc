/**
 * The validators' own outputs never count against the agent: in a real git repository,
 * `make test` builds a test binary, writes a coverage file and stamps a tracked file;
 * the built-in `git-clean` (declared after the tests, so order alone would not save it)
 * passes when the agent left nothing uncommitted, and fails naming only the agent's files
 * when it did, in its params and in the retry prompt built from them. A validator that
 * wipes the agent's uncommitted work cannot make the check pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConditionResult } from '../../../src/contracts/activities.js';
import type { ValidatorDefinition } from '../../../src/contracts/definition.js';
import { buildRetryPrompt } from '../../../src/activities/conditions/retry-prompt/build-retry-prompt.js';
import { readOptional } from '../../../src/definition/load/read-optional.js';
import { cleanTreeFirst, outputsSince, parseStatusZ } from '../../../src/activities/conditions/validator-outputs.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { BUILTIN_FAILURE_PATTERNS, builtinValidators } from '../../../src/definition/normalise/builtin-validators.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';
import { runClosure } from '../../helpers/run-closure.js';

const commands = createSpawnerCommandRunner();
const gitClean = builtinValidators({}).defined['git-clean']!;
const tests = (command: string): ValidatorDefinition => ({
  type: 'command',
  command,
  successWhen: 'exitCode:0',
  failurePattern: 'test-failed',
  extractParams: {},
});

/** A C project whose `make test` leaves a test binary, a coverage file and a rewritten tracked stamp. */
const PROJECT = {
  Makefile:
    'test: test_runner\n\t./test_runner > coverage.xml\n\techo built > BUILDINFO\n\n' +
    'test_runner: test_runner.c\n\tcc -o test_runner test_runner.c\n',
  'test_runner.c': '#include <stdio.h>\nint main(void) { puts("<coverage/>"); return 0; }\n',
  BUILDINFO: 'source\n',
};
const OUTPUTS = ['test_runner', 'coverage.xml', 'BUILDINFO'];

const closure = (repo: TempGitRepo, validators: Record<string, ValidatorDefinition>) =>
  runClosure(commands, repo.dir, validators);

async function retryPrompt(failed: readonly ConditionResult[]): Promise<string> {
  const prompt = await buildRetryPrompt(
    { readFile: readOptional },
    {
      promptsDir: join(PROJECT_ROOT, 'prompts'),
      c1: 'steps',
      completionStep: {
        stepId: 'closure.issue',
        name: 'c',
        c2: 'retry',
        c3: 'issue',
        conditions: [],
        onFail: { action: 'retry', maxAttempts: 3 },
      },
      failurePatterns: BUILTIN_FAILURE_PATTERNS,
      failed: failed.filter((r) => !r.passed),
    },
  );
  return prompt.text;
}

test('make test leaves a binary, a coverage file and a stamp: clean-tree still passes, and the tree is left clean', async () => {
  const repo = await makeTempGitRepo({ files: PROJECT });
  try {
    for (const attempt of ['first closure', 'second closure']) {
      const report = await closure(repo, { tests: tests('make test'), 'git-clean': gitClean });
      assert.deepEqual(
        report.results.map((r) => [r.validator, r.passed]),
        [
          ['tests', true],
          ['git-clean', true],
        ],
        `${attempt}: ${report.results.map((r) => r.summary).join(' | ')}`,
      );
      // Nothing left for the next closure's check, nor for the delivery's dirty-tree refusal.
      assert.equal(await repo.git('status', '--porcelain', '--untracked-files=all'), '', attempt);
    }
  } finally {
    await repo.cleanup();
  }
});

test("the agent's own uncommitted files still fail clean-tree, and the retry prompt names only them", async () => {
  const repo = await makeTempGitRepo({ files: PROJECT });
  try {
    await repo.write({ 'notes.txt': 'my fix, not committed\n', 'README.md': '# changed\n' });
    const report = await closure(repo, { tests: tests('make test'), 'git-clean': gitClean });
    const clean = report.results.find((r) => r.validator === 'git-clean');
    assert.equal(report.passed, false);
    assert.equal(clean?.passed, false);
    assert.deepEqual(clean?.params, { changedFiles: ['README.md'], untrackedFiles: ['notes.txt'] });
    const prompt = await retryPrompt(report.results);
    assert.match(prompt, /uncommitted changes/);
    assert.match(prompt, /notes\.txt/);
    assert.match(prompt, /README\.md/);
    for (const output of OUTPUTS)
      assert.ok(!prompt.includes(output), `the prompt does not blame ${output}:\n${prompt}`);
    // The agent's files are untouched; the validator's are gone.
    assert.ok(existsSync(join(repo.dir, 'notes.txt')));
    // (the helper trims the output: ` M README.md` loses its leading blank)
    assert.equal(await repo.git('status', '--porcelain', '--untracked-files=all'), 'M README.md\n?? notes.txt');
  } finally {
    await repo.cleanup();
  }
});

test("a validator that wipes the agent's uncommitted work cannot make clean-tree pass", async () => {
  const repo = await makeTempGitRepo({ files: PROJECT });
  try {
    await repo.write({ 'notes.txt': 'my fix, not committed\n', 'README.md': '# changed\n' });
    const report = await closure(repo, {
      tests: tests('git checkout -- . && git clean -fdq && make test'),
      'git-clean': gitClean,
    });
    const clean = report.results.find((r) => r.validator === 'git-clean');
    assert.equal(clean?.passed, false, clean?.summary);
    assert.deepEqual(clean?.params, { changedFiles: ['README.md'], untrackedFiles: ['notes.txt'] });
    assert.deepEqual(
      report.results.map((r) => r.validator),
      ['tests', 'git-clean'],
      'results in declared order',
    );
  } finally {
    await repo.cleanup();
  }
});

test('parseStatusZ, outputsSince and cleanTreeFirst', () => {
  const before = { entries: parseStatusZ(' M a.ts\0?? notes/\0R  new.ts\0old.ts\0') };
  assert.deepEqual(
    [...before.entries],
    [
      ['a.ts', ' M'],
      ['notes/', '??'],
      ['new.ts', 'R '],
    ],
  );
  const after = { entries: parseStatusZ(' M a.ts\0?? notes/\0R  new.ts\0old.ts\0?? build/\0 M stamp\0?? a b.txt\0') };
  assert.deepEqual(outputsSince(before, after), { untracked: ['build/', 'a b.txt'], tracked: ['stamp'] });
  const validators: Record<string, ValidatorDefinition> = {
    lint: tests('npm run lint'),
    tests: tests('npm test'),
    'git-clean': gitClean,
    custom: tests('git status --porcelain --untracked-files=no'),
  };
  const refs = ['lint', 'tests', 'git-clean', 'custom'].map((validator) => ({ validator, params: {} }));
  assert.deepEqual(cleanTreeFirst(refs, validators), [2, 3, 0, 1]);
});
