import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunValidatorsInput } from '../../../src/contracts/activities.js';
import type { CompletionStepDefinition, ConditionRef, ValidatorDefinition } from '../../../src/contracts/definition.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { runValidators } from '../../../src/activities/conditions/run-validators.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const commands = createSpawnerCommandRunner();

function step(conditions: ConditionRef[]): CompletionStepDefinition {
  return {
    stepId: 'closure.issue',
    name: 'Issue closure',
    c2: 'retry',
    c3: 'issue',
    conditions,
    onFail: { action: 'retry', maxAttempts: 3 },
  };
}

function cmd(
  command: string,
  successWhen: string,
  extra: Partial<Extract<ValidatorDefinition, { type: 'command' }>> = {},
): ValidatorDefinition {
  return { type: 'command', command, successWhen, extractParams: {}, ...extra };
}

async function run(worktreePath: string, validators: Record<string, ValidatorDefinition>, conditions?: ConditionRef[]) {
  const input: RunValidatorsInput = {
    worktreePath,
    completionStep: step(conditions ?? Object.keys(validators).map((validator) => ({ validator, params: {} }))),
    validators,
  };
  return runValidators({ commands }, input);
}

test('each successWhen rule, passing and failing', async () => {
  const repo = await makeTempGitRepo({ files: {} });
  try {
    const report = await run(repo.dir, {
      'empty-ok': cmd('true', 'empty'),
      'empty-bad': cmd('echo something', 'empty'),
      'exit-ok': cmd('exit 3', 'exitCode:3'),
      'exit-bad': cmd('echo "error: broken" >&2; exit 1', 'exitCode:0'),
      'contains-ok': cmd('echo all tests passed', 'contains:tests passed'),
      'contains-bad': cmd('echo nope', 'contains:tests passed'),
      'matches-ok': cmd('echo "fail 0"', 'matches:^fail 0$'),
      'matches-bad': cmd('echo "fail 2"', 'matches:^fail 0$'),
      'rule-typo': cmd('true', 'exitcode:0'),
    });
    const byName = Object.fromEntries(report.results.map((r) => [r.validator, r]));
    assert.equal(report.passed, false);
    assert.deepEqual(
      report.results.map((r) => r.validator),
      [
        'empty-ok',
        'empty-bad',
        'exit-ok',
        'exit-bad',
        'contains-ok',
        'contains-bad',
        'matches-ok',
        'matches-bad',
        'rule-typo',
      ],
      'all run, in order',
    );
    for (const name of ['empty-ok', 'exit-ok', 'contains-ok', 'matches-ok'])
      assert.equal(byName[name]?.passed, true, name);
    for (const name of ['empty-bad', 'exit-bad', 'contains-bad', 'matches-bad', 'rule-typo'])
      assert.equal(byName[name]?.passed, false, name);
    assert.equal(byName['exit-bad']?.exitCode, 1);
    assert.equal(
      byName['exit-bad']?.summary,
      '`echo "error: broken" >&2; exit 1` exited 1 (expected exit code 0)\nerror: broken',
    );
    assert.match(byName['rule-typo']?.summary ?? '', /unknown successWhen/);
    assert.equal(byName['rule-typo']?.unrecoverable, true);
  } finally {
    await repo.cleanup();
  }
});

test('a dirty tree fails git-clean with changedFiles/untrackedFiles params', async () => {
  const repo = await makeTempGitRepo({ files: { 'src/a.ts': 'export const a = 1;\n' } });
  try {
    // A different size on purpose: this git compares file times to the second, so a same-size
    // rewrite within the second of the last index write can pass for unchanged (racy git)
    // once a sandboxed `git status` has rewritten the index a second later.
    await repo.write({ 'src/a.ts': 'export const a = 20;\n', 'notes.txt': 'todo\n' });
    const validators: Record<string, ValidatorDefinition> = {
      'git-clean': {
        type: 'command',
        command: 'git status --porcelain',
        successWhen: 'empty',
        failurePattern: 'git-dirty',
        extractParams: { changedFiles: 'parseChangedFiles', untrackedFiles: 'parseUntrackedFiles' },
      },
    };
    const report = await run(repo.dir, validators);
    const result = report.results[0];
    assert.equal(report.passed, false);
    assert.equal(result?.failurePattern, 'git-dirty');
    assert.deepEqual(result?.params, { changedFiles: ['src/a.ts'], untrackedFiles: ['notes.txt'] });
    assert.equal(result?.unrecoverable, false);
    assert.match(result?.summary ?? '', /^`git status --porcelain` printed output \(expected no output\)\n/);

    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'work');
    const clean = await run(repo.dir, validators);
    assert.equal(clean.passed, true);
    assert.deepEqual(clean.results[0]?.params, {});
  } finally {
    await repo.cleanup();
  }
});

test('exit 127 (command not found) and permission errors are unrecoverable', async () => {
  const repo = await makeTempGitRepo({ files: { 'script.sh': 'echo hi\n' } });
  try {
    const report = await run(repo.dir, {
      missing: cmd('definitely-not-a-command-xyz --check', 'exitCode:0'),
      denied: cmd('./script.sh', 'exitCode:0'),
      ordinary: cmd('exit 1', 'exitCode:0'),
    });
    const [missing, denied, ordinary] = report.results;
    assert.equal(missing?.exitCode, 127);
    assert.equal(missing?.unrecoverable, true);
    assert.match(missing?.summary ?? '', /exited 127, unrecoverable: command not found/);
    assert.match(missing?.summary ?? '', /definitely-not-a-command-xyz: command not found/);
    assert.equal(denied?.exitCode, 126);
    assert.equal(denied?.unrecoverable, true);
    assert.equal(ordinary?.unrecoverable, false);
  } finally {
    await repo.cleanup();
  }
});

test('${key} placeholders come from condition params; unknown ones are left to bash', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const report = await run(
      repo.dir,
      { echo: cmd('echo "${word}-${count}-${HOME:+home}"', 'contains:hello-3-home') },
      [{ validator: 'echo', params: { word: 'hello', count: 3 } }],
    );
    assert.equal(report.passed, true, report.results[0]?.summary);
    assert.equal(report.results[0]?.command, 'echo "hello-3-${HOME:+home}"');
    assert.deepEqual(report.results[0]?.params, { word: 'hello', count: 3 });
  } finally {
    await repo.cleanup();
  }
});

test('test and type-check extractors on real tool output', async () => {
  const repo = await makeTempGitRepo({
    files: {
      'math.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('adds', () => assert.equal(1 + 1, 3));\n",
    },
  });
  try {
    const report = await run(repo.dir, {
      // NODE_TEST_CONTEXT is set by our own test runner; unset it so the inner run is a normal one.
      'tests-pass': cmd('env -u NODE_TEST_CONTEXT node --test --test-reporter=spec math.test.mjs', 'exitCode:0', {
        failurePattern: 'test-failed',
        extractParams: { failedTests: 'parseTestOutput', code: 'exitCode' },
      }),
    });
    const r = report.results[0];
    assert.equal(r?.passed, false);
    assert.deepEqual(r?.params['failedTests'], [
      {
        name: 'adds',
        file: 'math.test.mjs',
        excerpt: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n2 !== 3',
      },
    ]);
    assert.equal(r?.params['code'], 1);
    // The summary names the first failure and its assertion, not the runner's first output line.
    assert.equal(
      r?.summary.split('\n')[1],
      'adds: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 2 !== 3',
    );
  } finally {
    await repo.cleanup();
  }
});

test('pytest in the sandbox writes a JUnit report to the private HOME: names without any text output', async () => {
  const repo = await makeTempGitRepo({
    files: {
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'tests/test_calc.py':
        'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\n' +
        'class TestMore:\n    def test_zero(self):\n        assert add(0, 0) == 0\n\n' +
        '    def test_neg(self):\n        assert add(1, -1) == 0, "one minus one"\n',
      '.gitignore': '__pycache__/\n',
      'pytest.ini': '[pytest]\npythonpath = .\naddopts = -p no:cacheprovider\n',
    },
  });
  try {
    const tests = (command: string): ValidatorDefinition =>
      cmd(command, 'exitCode:0', { failurePattern: 'test-failed', extractParams: { failedTests: 'parseTestOutput' } });
    const report = await run(repo.dir, {
      // Output thrown away: only the report can name the failures.
      silent: tests('python3 -m pytest -q > /dev/null 2>&1'),
      plain: tests('python3 -m pytest'),
    });
    const expected = [
      {
        name: 'tests/test_calc.py::test_add',
        file: 'tests/test_calc.py',
        excerpt: 'assert -1 == 5\n +  where -1 = add(2, 3)\ntests/test_calc.py:4: AssertionError',
      },
      {
        name: 'tests/test_calc.py::TestMore::test_neg',
        file: 'tests/test_calc.py',
        excerpt:
          'AssertionError: one minus one\nassert 2 == 0\n +  where 2 = add(1, -1)\ntests/test_calc.py:11: AssertionError',
      },
    ];
    for (const r of report.results) {
      assert.equal(r.passed, false, r.summary);
      assert.deepEqual(r.params['failedTests'], expected, r.validator);
      assert.match(r.summary, /\ntests\/test_calc\.py::test_add: assert -1 == 5 \(\+1 more\)$/);
    }
    // Nothing written into the worktree.
    assert.equal(await repo.git('status', '--porcelain', '--untracked-files=all'), '');
  } finally {
    await repo.cleanup();
  }
});

test('file validator: present, missing, and escaping paths', async () => {
  const repo = await makeTempGitRepo({ files: { 'docs/guide.md': '# guide\n' } });
  try {
    await symlink('/etc', join(repo.dir, 'link-out'));
    const ok = await run(repo.dir, { docs: { type: 'file', paths: ['docs/guide.md', 'README.md'] } });
    assert.equal(ok.passed, true);
    const bad = await run(repo.dir, {
      docs: {
        type: 'file',
        paths: ['docs/guide.md', 'CHANGELOG.md', '../outside.txt', '/etc/passwd', 'link-out/passwd'],
        failurePattern: 'file-not-exists',
      },
    });
    const r = bad.results[0];
    assert.equal(r?.passed, false);
    assert.equal(r?.failurePattern, 'file-not-exists');
    assert.deepEqual(r?.params['missingFiles'], ['CHANGELOG.md']);
    assert.deepEqual(r?.params['refusedPaths'], ['../outside.txt', '/etc/passwd', 'link-out/passwd']);
    assert.equal(r?.unrecoverable, true);
  } finally {
    await repo.cleanup();
  }
});

test('full output goes to saveOutput when given; unknown validator is a config error', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const saved: string[] = [];
    const report = await runValidators(
      {
        commands,
        saveOutput: async (text) => (saved.push(text), { path: '/artifacts/x.log', sha256: 'abc', bytes: text.length }),
      },
      {
        worktreePath: repo.dir,
        completionStep: step([{ validator: 'say', params: {} }]),
        validators: { say: cmd('echo hello; echo oops >&2', 'exitCode:0') },
      },
    );
    assert.equal(report.results[0]?.output?.path, '/artifacts/x.log');
    assert.match(saved[0] ?? '', /^\$ echo hello; echo oops >&2\nhello\noops\n/);
    await assert.rejects(
      runValidators(
        { commands },
        { worktreePath: repo.dir, completionStep: step([{ validator: 'nope', params: {} }]), validators: {} },
      ),
      (e: Error & { code?: string }) => e.code === 'CONFIG_INVALID' && /unknown validator "nope"/.test(e.message),
    );
  } finally {
    await repo.cleanup();
  }
});

test('a timed-out validator fails with a clear summary', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const report = await run(repo.dir, { slow: cmd('sleep 10', 'exitCode:0', { timeoutMs: 200 }) });
    assert.equal(report.results[0]?.passed, false);
    assert.match(report.results[0]?.summary ?? '', /^`sleep 10` timed out after 0.2s/);
    assert.equal(report.results[0]?.unrecoverable, false);
  } finally {
    await repo.cleanup();
  }
});

test('a test command exiting 0: a test its runner names failing fails the check; one it also names passing (rerun) does not', async () => {
  const repo = await makeTempGitRepo({ files: {} });
  try {
    const tests = { extractParams: { failedTests: 'parseTestOutput' } } as const;
    const report = await run(repo.dir, {
      forged: cmd(
        `printf 'TAP version 13\\nnot ok 1 - adds\\n  ---\\n  ...\\n# fail 1\\n'; exit 0`,
        'exitCode:0',
        tests,
      ),
      rerun: cmd(
        `printf -- '--- FAIL: TestAdds (0.00s)\\n--- PASS: TestAdds (0.00s)\\nok  \\texample.com/m\\t0.01s\\n'`,
        'exitCode:0',
        tests,
      ),
    });
    const [forged, rerun] = report.results;
    assert.equal(forged?.passed, false, forged?.summary);
    assert.match(forged?.summary ?? '', /exited 0, but the test runner names 1 failing test\(s\)/);
    assert.match(forged?.summary ?? '', /adds/);
    assert.equal(rerun?.passed, true, rerun?.summary);
  } finally {
    await repo.cleanup();
  }
});
