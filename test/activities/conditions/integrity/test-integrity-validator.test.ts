/**
 * The built-in test-integrity validator through runValidators, on a real issue branch
 * whose base is recorded as prepareWorkspace records it, and the default agent's retry
 * prompt it leads to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runValidators } from '../../../../src/activities/conditions/run-validators.js';
import { loadAgentDefinitionOrThrow } from '../../../../src/definition/load/load-agent-definition.js';
import { PROJECT_ROOT } from '../../../../src/host/project-root.js';
import type { TempGitRepo } from '../../../helpers/temp-git-repo.js';
import { issueBranchCheck } from '../issue-branch-check.js';

const TEST = "import { sum } from '../src/sum';\n\ntest('adds', () => {\n  expect(sum(1, 2)).toBe(3);\n});\n";
const { noCommands, step, retryPrompt, ...repos } = issueBranchCheck('test-integrity');

async function issueBranch(): Promise<TempGitRepo> {
  const repo = await repos.issueBranch({ 'test/sum.test.ts': TEST, 'src/sum.ts': 'export const sum = 0;\n' });
  await repo.write({ 'test/sum.test.ts': TEST.replace("test('adds'", "test.skip('adds'") });
  await repo.git('commit', '-qam', 'make it green');
  return repo;
}

test('a skipped test fails the check with file, line and finding; the default retry prompt names them', async () => {
  const repo = await issueBranch();
  // main moves on after the branch was cut: the merge-base, not main's tip, is the base.
  await repo.git('checkout', '-q', 'main');
  await repo.write({ 'other.md': 'later\n' });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'later on main');
  await repo.git('checkout', '-q', 'agent/issue-1');

  const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const report = await runValidators(
    { commands: noCommands },
    { worktreePath: repo.dir, completionStep: step, validators: definition.validators, issueText: 'Fix sum' },
  );
  assert.equal(report.passed, false);
  const result = report.results[0];
  assert.equal(result?.failurePattern, 'test-weakened');
  assert.equal(result?.params['file'], 'test/sum.test.ts');
  assert.equal(result?.params['line'], 3);
  assert.match(String(result?.params['finding']), /skips a test/);
  assert.match(result?.summary ?? '', /1 change\(s\) weakening the tests.*test\/sum\.test\.ts:3/);

  const prompt = await retryPrompt(report.results);
  assert.equal(prompt.source, 'steps/retry/issue/f_failed_test-weakened.md');
  assert.match(prompt.text, /`test\/sum\.test\.ts` line 3: skips a test/);
});

test('a bug report naming the test file and asking for the skip is no waiver; the label agent:tests-only is', async () => {
  const repo = await issueBranch();
  const validators = { 'test-integrity': { type: 'test-integrity', failurePattern: 'test-weakened' } } as const;
  const issueText = 'sum.test.ts is flaky on CI: skip it until #12 lands';
  const named = await runValidators(
    { commands: noCommands },
    { worktreePath: repo.dir, completionStep: step, validators, issueText, issueLabels: ['bug'] },
  );
  assert.equal(named.passed, false, named.results[0]?.summary);
  assert.equal(named.results[0]?.params['file'], 'test/sum.test.ts');
  const labelled = await runValidators(
    { commands: noCommands },
    { worktreePath: repo.dir, completionStep: step, validators, issueText, issueLabels: ['agent:tests-only'] },
  );
  assert.equal(labelled.passed, true, labelled.results[0]?.summary);
  assert.match(
    labelled.results[0]?.summary ?? '',
    /1 change\(s\) allowed: the issue carries the label agent:tests-only/,
  );
  assert.deepEqual(labelled.results[0]?.params['waived'], [
    { kind: 'test-skipped', file: 'test/sum.test.ts', line: 3, finding: "skips a test: `test.skip('adds', () => {`" },
  ]);
});

test('no recorded base: nothing can be compared, so the check fails unrecoverable; a `base` param is used instead', async () => {
  const repo = await repos.plainRepo({ 'test/sum.test.ts': TEST });
  await repo.write({ 'test/sum.test.ts': TEST.replace("test('adds'", "test.skip('adds'") });
  const validators = { 'test-integrity': { type: 'test-integrity', failurePattern: 'test-weakened' } } as const;
  const plain = await runValidators(
    { commands: noCommands },
    { worktreePath: repo.dir, completionStep: step, validators },
  );
  assert.equal(plain.passed, false);
  assert.equal(plain.results[0]?.unrecoverable, true);
  assert.match(plain.results[0]?.summary ?? '', /no base commit to judge against/);
  const withBase = await runValidators(
    { commands: noCommands },
    {
      worktreePath: repo.dir,
      completionStep: { ...step, conditions: [{ validator: 'test-integrity', params: { base: 'main' } }] },
      validators,
    },
  );
  assert.equal(withBase.passed, false, 'uncommitted edits count');
});

test("a #[test] fn deleted from a Rust source file's test module fails the check, named by file and line", async () => {
  const lib =
    'pub fn one() -> u8 {\n    2\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn is_one() {\n        assert_eq!(super::one(), 1);\n    }\n}\n';
  const repo = await repos.issueBranch({ 'src/lib.rs': lib });
  await repo.write({
    'src/lib.rs': lib.replace('    #[test]\n    fn is_one() {\n        assert_eq!(super::one(), 1);\n    }\n', ''),
  });
  await repo.git('commit', '-qam', 'green');
  const report = await runValidators(
    { commands: noCommands },
    {
      worktreePath: repo.dir,
      completionStep: step,
      validators: { 'test-integrity': { type: 'test-integrity', failurePattern: 'test-weakened' } },
    },
  );
  assert.equal(report.passed, false, report.results[0]?.summary);
  assert.equal(report.results[0]?.params['file'], 'src/lib.rs');
  assert.equal(report.results[0]?.params['line'], 7);
  assert.equal(report.results[0]?.params['finding'], 'test "is_one" removed (was line 7)');
});
