/**
 * The validators judge the commit, not what the agent left around it. In a real git
 * repository, with the built-in `git-clean` and a test command, each scenario is a way a
 * stranger closed an issue with an unfixed branch (stop 61's report): an uncommitted fix
 * hidden by an index bit, an ignored file that makes the tests pass, a source changed
 * back with its old mtime so the build keeps an earlier cheat. Each passes without
 * judged-tree/ and fails with it; what setup and the harness built before stays.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ValidatorDefinition } from '../../../../src/contracts/definition.js';
import { markTrusted } from '../../../../src/activities/conditions/judged-tree/judge-the-commit.js';
import { AgentError } from '../../../../src/contracts/errors.js';
import { FailureType } from '../../../../src/contracts/failures.js';
import { recordRunBranch } from '../../../../src/activities/workspace/run-refs.js';
import { describeJudgedTree } from '../../../../src/activities/conditions/judged-tree/judged-tree-notes.js';
import { readIndexListing } from '../../../../src/activities/conditions/judged-tree/fresh-index.js';
import { createSpawnerCommandRunner } from '../../../../src/activities/process/spawner-command-runner.js';
import { builtinValidators } from '../../../../src/definition/normalise/builtin-validators.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';
import { runClosure } from '../../../helpers/run-closure.js';

const commands = createSpawnerCommandRunner();
const validators: Record<string, ValidatorDefinition> = {
  'git-clean': builtinValidators({}).defined['git-clean']!,
  tests: {
    type: 'command',
    command: 'test -e checks/_local/pass || make -s verdict',
    successWhen: 'exitCode:0',
    failurePattern: 'test-failed',
    extractParams: {},
  },
};
/** `make verdict` passes when the built `out` says fixed; `out` is built from `code.txt` and ignored. */
const PROJECT = {
  Makefile: 'verdict: out\n\tgrep -q fixed out\n\nout: code.txt\n\tcp code.txt out\n',
  'code.txt': 'bug\n',
  '.gitignore': 'out\n',
};

let stateDir: string;
let savedState: string | undefined;
before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'judged-state-'));
  savedState = process.env['ISSUE_AGENT_STATE_DIR'];
  process.env['ISSUE_AGENT_STATE_DIR'] = stateDir;
});
after(async () => {
  if (savedState === undefined) delete process.env['ISSUE_AGENT_STATE_DIR'];
  else process.env['ISSUE_AGENT_STATE_DIR'] = savedState;
  await rm(stateDir, { recursive: true, force: true });
});

const closure = (repo: TempGitRepo) => runClosure(commands, repo.dir, validators);

/** A repository at its base, as the preflight leaves it: the harness's stamp written. */
async function preflighted(): Promise<TempGitRepo> {
  const repo = await makeTempGitRepo({ files: PROJECT });
  await markTrusted(repo.dir);
  return repo;
}

const passed = (report: Awaited<ReturnType<typeof closure>>, id: string) =>
  report.results.find((r) => r.validator === id)?.passed;

for (const flag of ['--skip-worktree', '--assume-unchanged']) {
  test(`a fix hidden from git status by ${flag} is an uncommitted change, not a fixed branch`, async () => {
    const repo = await preflighted();
    try {
      await repo.write({ 'code.txt': 'fixed\n' });
      await repo.git('update-index', flag, 'code.txt');
      assert.equal(await repo.git('status', '--porcelain'), '', 'the agent sees a clean tree');
      const report = await closure(repo);
      assert.equal(passed(report, 'git-clean'), false, 'the clean-tree check sees the uncommitted fix');
      assert.equal(report.passed, false);
      assert.match(report.treeNotes?.join('\n') ?? '', /index hid code\.txt/);
      assert.equal(await repo.git('ls-files', '-v', 'code.txt'), 'H code.txt', 'the bit is gone');
    } finally {
      await repo.cleanup();
    }
  });
}

test('what the agent staged stays staged when the index is rebuilt', async () => {
  const repo = await preflighted();
  try {
    await repo.write({ 'code.txt': 'fixed\n', 'new.txt': 'new\n' });
    await repo.git('add', 'code.txt', 'new.txt');
    await closure(repo);
    assert.equal(await repo.git('status', '--porcelain'), 'M  code.txt\nA  new.txt');
  } finally {
    await repo.cleanup();
  }
});

test('an ignored file the agent wrote after the preflight is moved out before the tests run', async () => {
  const repo = await preflighted();
  try {
    // A directory whose own .gitignore says `*`: git status never shows it.
    await repo.write({ 'checks/_local/.gitignore': '*\n', 'checks/_local/pass': '' });
    assert.equal(await repo.git('status', '--porcelain'), '');
    const report = await closure(repo);
    assert.equal(passed(report, 'tests'), false, 'the tests ran without the planted file');
    assert.equal(existsSync(join(repo.dir, 'checks/_local/pass')), false);
    const note = report.treeNotes?.join('\n') ?? '';
    assert.match(
      note,
      /set aside 2 git-ignored file\(s\) the agent's commands wrote that no commit holds: checks\/_local\/\.gitignore, checks\/_local\/pass /,
    );
    const movedTo = /kept in (\S+) while/.exec(note)?.[1];
    assert.ok(movedTo !== undefined && existsSync(join(movedTo, 'checks/_local/pass')), 'kept where the note says');
  } finally {
    await repo.cleanup();
  }
});

test('ignored files from before the preflight and from the validators themselves stay', async () => {
  const repo = await makeTempGitRepo({ files: { ...PROJECT, 'code.txt': 'fixed\n' } });
  try {
    await repo.write({ 'checks/_local/.gitignore': '*\n', 'checks/_local/setup-made': '' });
    await markTrusted(repo.dir);
    assert.equal((await closure(repo)).passed, true);
    assert.equal((await closure(repo)).treeNotes, undefined, "the first closure's `out` is not the agent's");
    assert.ok(existsSync(join(repo.dir, 'checks/_local/setup-made')));
    assert.ok(existsSync(join(repo.dir, 'out')));
  } finally {
    await repo.cleanup();
  }
});

test('a source changed back with its old mtime is rebuilt, not judged by an earlier build of a cheat', async () => {
  const repo = await preflighted();
  try {
    const code = join(repo.dir, 'code.txt');
    await repo.write({ 'code.txt': 'fixed\n' });
    assert.equal(passed(await closure(repo), 'tests'), true, 'the cheat is built into `out`');
    await repo.write({ 'code.txt': 'bug\n' });
    const old = new Date('2001-01-01T00:00:00Z');
    await utimes(code, old, old);
    const report = await closure(repo);
    assert.equal(passed(report, 'tests'), false, 'make rebuilt `out` from the source the branch holds');
    assert.match(report.treeNotes?.join('\n') ?? '', /code\.txt had a modification time set back/);
  } finally {
    await repo.cleanup();
  }
});

test('git ls-files -v tags: S and lowercase hide a path, the rest do not', () => {
  const listing = readIndexListing('H a\0S b\0h c\0s d\0M e\0? f\0');
  assert.deepEqual(listing.hidden, ['b', 'c', 'd']);
  assert.deepEqual(
    listing.tracked,
    ['a', 'b', 'c', 'd', 'e', 'f'],
    'every path the index names, for the back-dated check',
  );
});

test('only the newest three closures keep what they set aside', async () => {
  const repo = await preflighted();
  try {
    const dirs = new Set<string>();
    for (let i = 0; i < 4; i++) {
      await repo.write({ 'checks/_local/.gitignore': '*\n', 'checks/_local/pass': `${i}` });
      const note = (await closure(repo)).treeNotes?.join('\n') ?? '';
      dirs.add(/kept in (\S+) while/.exec(note)?.[1] ?? '');
    }
    const kept = [...dirs].filter((dir) => existsSync(dir));
    assert.equal(dirs.size, 4);
    assert.equal(kept.length, 3, 'the oldest is gone');
    assert.ok(!kept.includes([...dirs][0]!));
  } finally {
    await repo.cleanup();
  }
});

for (const [how, move] of [
  ['another branch', ['checkout', '-q', '-b', 'agent/side']],
  ['a detached HEAD', ['checkout', '-q', '--detach']],
] as const) {
  test(`a fix committed on ${how} is not the run's branch: HEAD goes back and the fix shows as uncommitted`, async () => {
    const repo = await preflighted();
    try {
      await repo.git('checkout', '-q', '-b', 'agent/issue-4');
      await recordRunBranch(repo.dir, 'agent/issue-4');
      await repo.write({ 'README.md': '# a comment\n' });
      await repo.git('commit', '-q', '-am', 'comment on the run branch');
      await repo.git(...move);
      await repo.write({ 'code.txt': 'fixed\n' });
      await repo.git('commit', '-q', '-am', 'the fix, elsewhere');
      const report = await closure(repo);
      assert.equal(passed(report, 'git-clean'), false, 'the branch lacks the fix');
      assert.equal(report.passed, false);
      assert.equal(await repo.git('symbolic-ref', 'HEAD'), 'refs/heads/agent/issue-4');
      assert.equal(await repo.git('status', '--porcelain'), 'M  code.txt', 'the fix is staged, to be committed');
      assert.match(
        report.treeNotes?.join('\n') ?? '',
        /HEAD was (on agent\/side|detached), not on the run's branch agent\/issue-4/,
      );
    } finally {
      await repo.cleanup();
    }
  });
}

test('build outputs and caches are summed up by directory; any other ignored file is named, not hidden among them', () => {
  const setAside = [
    '.pytest_cache/v/cache/nodeids',
    'src/pkg/__pycache__/a.cpython-312.pyc',
    'src/pkg/__pycache__/b.cpython-312.pyc',
    'target/surefire-reports/TEST-x.xml',
    'testing/_local/conftest.py',
  ];
  const notes = describeJudgedTree({ unhidden: [], setAside, setAsideDir: '/s', freshened: [] });
  assert.equal(notes.length, 2);
  assert.match(notes[0]!, /set aside 1 git-ignored file\(s\) .*: testing\/_local\/conftest\.py \(kept in \/s while/);
  assert.match(
    notes[1]!,
    /set aside 4 build output and cache file\(s\) .*\(\.pytest_cache\/, src\/pkg\/__pycache__\/, target\/\); the validators build their own$/,
  );
  const routine = { unhidden: [], setAside: setAside.slice(0, 4), setAsideDir: '/s', freshened: [] };
  assert.deepEqual(describeJudgedTree(routine), [], 'an honest pytest run leaves caches: no warning');
});

test('a run branch whose ref was emptied ends the validation: nothing is judged on whatever HEAD is', async () => {
  const repo = await preflighted();
  try {
    await repo.git('checkout', '-q', '-b', 'agent/issue-9');
    await recordRunBranch(repo.dir, 'agent/issue-9');
    await repo.git('checkout', '-q', '-b', 'agent/side');
    await repo.write({ 'code.txt': 'fixed\n' });
    await repo.git('commit', '-q', '-am', 'the fix, elsewhere');
    await writeFile(join(repo.dir, '.git/refs/heads/agent/issue-9'), '');
    await assert.rejects(closure(repo), (error: unknown) => {
      assert.ok(AgentError.isInstance(error));
      assert.equal(error.code, FailureType.WorktreeFailed);
      assert.match(
        error.message,
        /the run's branch agent\/issue-9 no longer names a commit .*HEAD is on agent\/side\)/,
      );
      return true;
    });
  } finally {
    await repo.cleanup();
  }
});

test('a run branch pointed back at its base while the fix sits on another branch: nothing changed, and the fix is uncommitted', async () => {
  const repo = await preflighted();
  try {
    const base = await repo.git('rev-parse', 'HEAD');
    await repo.git('checkout', '-q', '-b', 'agent/issue-9');
    await repo.git('config', 'branch.agent/issue-9.agentBase', 'main');
    await recordRunBranch(repo.dir, 'agent/issue-9');
    await repo.write({ 'README.md': '# a comment\n' });
    await repo.git('commit', '-q', '-am', 'comment on the run branch');
    await repo.git('checkout', '-q', '-b', 'agent/side');
    await repo.write({ 'code.txt': 'fixed\n' });
    await repo.git('commit', '-q', '-am', 'the fix, elsewhere');
    await repo.git('update-ref', 'refs/heads/agent/issue-9', base);
    const withNoOpGuard = { ...validators, 'branch-changed': builtinValidators({}).defined['branch-changed']! };
    const report = await runClosure(commands, repo.dir, withNoOpGuard);
    assert.equal(report.passed, false);
    assert.equal(passed(report, 'git-clean'), false, 'the fix is not on the run branch');
    assert.equal(passed(report, 'branch-changed'), false, 'the run branch is its base');
    assert.equal(await repo.git('symbolic-ref', 'HEAD'), 'refs/heads/agent/issue-9');
  } finally {
    await repo.cleanup();
  }
});

for (const move of ['update-ref refs/heads/agent/issue-9', 'reset -q --hard'])
  test(`the commit's own code moving the run's branch (git ${move.split(' ')[0]}) while the validators run it fails the closure; branch and files go back`, async () => {
    const repo = await preflighted();
    try {
      const base = await repo.git('rev-parse', 'HEAD');
      await repo.git('checkout', '-q', '-b', 'agent/issue-9');
      await recordRunBranch(repo.dir, 'agent/issue-9');
      // The fix, and a build rule that, once the tests pass, points the branch at the base:
      // the validators would vouch for one commit and the delivery take another.
      await repo.write({
        'code.txt': 'fixed\n',
        Makefile: `verdict: out\n\tgrep -q fixed out\n\tgit ${move} ${base}\n\nout: code.txt\n\tcp code.txt out\n`,
      });
      await repo.git('commit', '-q', '-am', 'the fix');
      const judged = await repo.git('rev-parse', 'HEAD');
      const report = await closure(repo);
      assert.equal(passed(report, 'tests'), true, 'the tests passed on the judged commit');
      const held = report.results.find((r) => r.validator === 'run-branch');
      assert.equal(held?.passed, false, 'the move fails the closure');
      assert.equal(held?.unrecoverable, true);
      assert.match(held?.summary ?? '', /moved the run's branch agent\/issue-9 from [0-9a-f]{12} to [0-9a-f]{12}/);
      assert.equal(report.passed, false);
      assert.equal(
        await repo.git('rev-parse', 'refs/heads/agent/issue-9'),
        judged,
        'the branch names the judged commit again',
      );
      assert.match(held?.summary ?? '', /The branch and the worktree were put back/);
      assert.equal(
        await repo.git('status', '--porcelain', '--untracked-files=no'),
        '',
        "the files are the judged commit's",
      );
    } finally {
      await repo.cleanup();
    }
  });
