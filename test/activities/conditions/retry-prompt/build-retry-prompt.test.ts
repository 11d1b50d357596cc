import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BuildRetryPromptInput, ConditionResult } from '../../../../src/contracts/activities.js';
import { buildRetryPrompt } from '../../../../src/activities/conditions/retry-prompt/build-retry-prompt.js';
import { readOptional } from '../../../../src/definition/load/read-optional.js';
import { BUILTIN_RETRY_SOURCE } from '../../../../src/activities/conditions/retry-prompt/builtin-retry-text.js';
import { parseTestFailures } from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { BUILTIN_FAILURE_PATTERNS } from '../../../../src/definition/normalise/builtin-validators.js';
import { PROJECT_ROOT } from '../../../../src/host/project-root.js';
import { fixture } from '../fixtures.js';

const dirty: ConditionResult = {
  validator: 'git-clean',
  passed: false,
  command: 'git status --porcelain',
  exitCode: 0,
  summary: '`git status --porcelain` printed output (expected no output)\nM src/a.ts',
  failurePattern: 'git-dirty',
  params: { changedFiles: ['src/a.ts', 'src/b.ts'], untrackedFiles: [] },
  unrecoverable: false,
};
const typeErr: ConditionResult = {
  validator: 'type-check',
  passed: false,
  command: 'npx tsc --noEmit',
  exitCode: 2,
  summary: '`npx tsc --noEmit` exited 2 (expected exit code 0)',
  failurePattern: 'type-error',
  params: { errors: [{ file: 'src/a.ts', line: 1, column: 14, code: 'TS2322', message: 'bad' }] },
  unrecoverable: false,
};

function input(promptsDir: string, failed: ConditionResult[] = [dirty, typeErr]): BuildRetryPromptInput {
  return {
    promptsDir,
    c1: 'steps',
    completionStep: {
      stepId: 'closure.issue',
      name: 'Issue',
      c2: 'retry',
      c3: 'issue',
      conditions: [],
      onFail: { action: 'retry', maxAttempts: 3 },
    },
    failurePatterns: {
      'git-dirty': {
        description: 'uncommitted changes',
        edition: 'failed',
        adaptation: 'git-dirty',
        params: ['changedFiles', 'untrackedFiles'],
      },
      'type-error': { description: 'type errors', edition: 'failed', adaptation: 'type-error', params: ['errors'] },
    },
    failed,
  };
}

async function withPrompts(files: Record<string, string>, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'prompts-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const deps = { readFile: readOptional };

test('C3L pattern file f_<edition>_<adaptation>.md with template features and front matter stripped', async () => {
  const template = [
    '---',
    'title: git dirty',
    '---',
    '',
    'Validator {{validator}} failed (exit {{exitCode}}): uncommitted changes in {{changedFiles}}.',
    '{{#each changedFiles}}- commit {{this}}',
    '{{/each}}{{#if untrackedFiles}}Untracked: {{untrackedFiles}}{{else}}No untracked files.{{/if}}',
    'All failures:{{#each failures}} [{{this.validator}}]{{/each}}',
  ].join('\n');
  await withPrompts(
    { 'steps/retry/issue/f_failed_git-dirty.md': template, 'steps/retry/issue/f_failed.md': 'generic' },
    async (dir) => {
      const prompt = await buildRetryPrompt(deps, input(dir));
      assert.equal(prompt.source, 'steps/retry/issue/f_failed_git-dirty.md');
      assert.equal(
        prompt.text,
        'Validator git-clean failed (exit 0): uncommitted changes in src/a.ts, src/b.ts.\n- commit src/a.ts\n- commit src/b.ts\nNo untracked files.\nAll failures: [git-clean] [type-check]',
      );
    },
  );
});

test('falls back to f_<edition>.md, then f_failed.md', async () => {
  const pattern = input('x').failurePatterns;
  await withPrompts(
    {
      'steps/retry/issue/f_broken.md': 'edition {{validator}}',
      'steps/retry/issue/f_failed.md': 'Fix: {{#each failures}}{{this.validator}}; {{/each}}',
    },
    async (dir) => {
      const withEdition = await buildRetryPrompt(deps, {
        ...input(dir),
        failurePatterns: { ...pattern, 'git-dirty': { description: '', edition: 'broken', params: [] } },
      });
      assert.equal(withEdition.source, 'steps/retry/issue/f_broken.md');
      assert.equal(withEdition.text, 'edition git-clean');
      const generic = await buildRetryPrompt(deps, input(dir));
      assert.equal(generic.source, 'steps/retry/issue/f_failed.md');
      assert.equal(generic.text, 'Fix: git-clean; type-check;');
    },
  );
});

test('the primary failure is the first with a declared pattern', async () => {
  const unpatterned: ConditionResult = {
    validator: 'custom-check',
    passed: false,
    summary: 'custom failed',
    params: {},
    unrecoverable: false,
  };
  await withPrompts(
    {
      'steps/retry/issue/f_failed_type-error.md':
        '{{validator}}: {{#each errors}}{{this.file}}:{{this.line}} {{this.message}}{{/each}}',
    },
    async (dir) => {
      const prompt = await buildRetryPrompt(deps, input(dir, [unpatterned, typeErr]));
      assert.equal(prompt.source, 'steps/retry/issue/f_failed_type-error.md');
      assert.equal(prompt.text, 'type-check: src/a.ts:1 bad');
    },
  );
});

test('built-in text when no prompt file exists lists each failure and its params', async () => {
  await withPrompts({}, async (dir) => {
    const prompt = await buildRetryPrompt(deps, input(dir));
    assert.equal(prompt.source, BUILTIN_RETRY_SOURCE);
    assert.match(prompt.text, /## Completion conditions not met/);
    assert.match(prompt.text, /### git-clean \(git-dirty\)/);
    assert.match(prompt.text, /- changedFiles: src\/a.ts, src\/b.ts/);
    assert.doesNotMatch(prompt.text, /untrackedFiles/, 'empty params are left out');
    assert.match(prompt.text, /### type-check \(type-error\)/);
    assert.match(prompt.text, /"code":"TS2322"/);
  });
});

/** A failed `tests` validator as run-validators reports it for `npm test` running mocha. */
function mochaFailure(): ConditionResult {
  const failedTests = JSON.parse(
    JSON.stringify(parseTestFailures(fixture('mocha.txt'))),
  ) as ConditionResult['params'][string];
  return {
    validator: 'tests',
    passed: false,
    command: 'npm test',
    exitCode: 3,
    summary: '`npm test` exited 3 (expected exit code 0)\nthrows: TypeError: cannot read x of undefined (+2 more)',
    failurePattern: 'test-failed',
    params: { failedTests },
    unrecoverable: false,
  };
}

test('the shipped test-failed prompt lists each failing test with its file and assertion', async () => {
  const prompt = await buildRetryPrompt(deps, {
    ...input(join(PROJECT_ROOT, 'prompts'), [mochaFailure()]),
    failurePatterns: BUILTIN_FAILURE_PATTERNS,
  });
  assert.equal(prompt.source, 'steps/retry/issue/f_failed_test-failed.md');
  assert.match(
    prompt.text,
    /Failing tests:\n- throws \(test\/math\.test\.js\)\n```\nTypeError: cannot read x of undefined\n```\n- math adds \(test\/math\.test\.js\)\n```\nAssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:\n-1 !== 5\n```\n/,
  );
  assert.match(prompt.text, /- math nested deep equal \(test\/math\.test\.js\)\n```\nAssertionError/);
  assert.match(prompt.text, /Command: `npm test` \(exit code 3\)\./);
  assert.doesNotMatch(prompt.text, /is-number@7\.0\.0|at Context/);
});

test('the built-in text lists failing tests one per line with their excerpts', async () => {
  await withPrompts({}, async (dir) => {
    const prompt = await buildRetryPrompt(deps, input(dir, [mochaFailure()]));
    assert.equal(prompt.source, BUILTIN_RETRY_SOURCE);
    assert.match(
      prompt.text,
      /- failedTests:\n {2}- throws \(test\/math\.test\.js\)\n {4}TypeError: cannot read x of undefined\n {2}- math adds/,
    );
  });
});

test('semanticMatch: a failure naming no pattern gets the best-scoring pattern by keywords and /regex/', async () => {
  const lint: ConditionResult = {
    validator: 'lint-check',
    passed: false,
    command: 'npm run lint',
    exitCode: 1,
    summary: '`npm run lint` exited 1: 3 problems (eslint) in src/a.ts',
    params: { output: 'src/a.ts: no-unused-vars' },
    unrecoverable: false,
  };
  const base = input('', [lint]);
  const patterns = {
    ...base.failurePatterns,
    'lint-error': {
      description: 'lint',
      edition: 'failed',
      adaptation: 'lint-error',
      params: [],
      semanticMatch: ['eslint', '/no-unused-\\w+/'],
    },
    'weak-match': {
      description: 'weak',
      edition: 'failed',
      adaptation: 'weak',
      params: [],
      semanticMatch: ['problems'],
    },
  };
  await withPrompts(
    {
      'steps/retry/issue/f_failed_lint-error.md': 'Fix the lint errors ({{validator}}).',
      'steps/retry/issue/f_failed_weak.md': 'weak',
      'steps/retry/issue/f_failed.md': 'generic',
    },
    async (dir) => {
      const chosen = await buildRetryPrompt(deps, { ...input(dir, [lint]), failurePatterns: patterns });
      assert.equal(chosen.source, 'steps/retry/issue/f_failed_lint-error.md');
      assert.equal(chosen.text, 'Fix the lint errors (lint-check).');
      // Without keywords that match, the generic prompt as before.
      const none = await buildRetryPrompt(deps, {
        ...input(dir, [{ ...lint, summary: 'x', params: {} }]),
        failurePatterns: patterns,
      });
      assert.equal(none.source, 'steps/retry/issue/f_failed.md');
    },
  );
});
