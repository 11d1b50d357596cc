/**
 * Setup's leftovers in a repository that does not ignore them (stranger-66: yarn's
 * `node_modules/.yarn-integrity` reached the delivered branch of a repository with no
 * `.gitignore`): what setup created is ignored by the run's own repository, never by the
 * user's; a setup the agent wrote keeps what it created in the diff.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createEnvironmentActivities } from '../../../src/activities/environment/create-environment-activities.js';
import { localIssueSourceFactory, writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { privateRepoOf } from '../../../src/activities/workspace/private-repo/private-repo-layout.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';
import { runInSandbox } from '../../helpers/run-in-sandbox.js';
import { removeTempStateDir, useTempStateDir } from './environment-fixtures.js';

const LEAVES_FILES = [
  'mkdir -p node_modules pkg.egg-info',
  'echo v > node_modules/.yarn-integrity',
  'echo x > pkg.egg-info/PKG-INFO',
  "echo '*' > 'odd [name].txt'",
  'echo more >> README.md',
].join(' && ');

let repo: TempGitRepo;
const { prepareEnvironment } = createEnvironmentActivities();

before(async () => {
  await useTempStateDir();
  repo = await makeTempGitRepo({ files: { 'README.md': 'hi\n', 'src/a.js': 'export const a = 1;\n' } });
  await repo.write({ '.git/info/exclude': '.agent/\n' });
  for (const number of [1, 2, 3]) await writeLocalIssue(repo.dir, { number, title: 'Change a file', body: 'Please.' });
});
after(async () => {
  await repo.cleanup();
  await removeTempStateDir();
});

async function worktreeFor(issue: number): Promise<string> {
  const prepared = await prepareWorkspace(
    { issueSource: localIssueSourceFactory },
    { repoPath: repo.dir, issue, issueSource: 'local', worktreeRoot: undefined, branchPrefix: 'agent' },
  );
  assert.ok(privateRepoOf(prepared.worktreePath), 'the run has a repository of its own');
  return prepared.worktreePath;
}

const status = async (worktree: string): Promise<string> =>
  (await runInSandbox(worktree, 'git status --porcelain --untracked-files=normal')).stdout;

test("what setup created is ignored by the run's repository, not the user's; changed tracked files stay a warning", async () => {
  const userExclude = path.join(repo.dir, '.git', 'info', 'exclude');
  const excludeBefore = await readFile(userExclude, 'utf8');
  const worktree = await worktreeFor(1);
  const report = await prepareEnvironment({ worktreePath: worktree, repoPath: repo.dir, setup: [LEAVES_FILES] });

  assert.equal((await status(worktree)).trimEnd(), ' M README.md', "the run's git sees only the tracked change");
  assert.match(
    report.warnings[0] ?? '',
    /setup left 3 untracked path\(s\) your repository does not ignore \(.*node_modules\/.*\): kept out of the run's commits; add them to \.gitignore/,
  );
  assert.match(report.warnings[0] ?? '', /odd \[name\]\.txt/);
  assert.match(report.warnings[1] ?? '', /setup left 1 change\(s\) git shows in the worktree \(README\.md\)/);
  assert.deepEqual(report.repositoryAdvice, report.warnings, 'said again to the repository in the delivery');
  assert.equal(await readFile(userExclude, 'utf8'), excludeBefore, "the user's info/exclude is untouched");

  // Ignored means ignored only at those paths: a file the agent adds beside them is seen.
  const added = await runInSandbox(worktree, "echo y > 'odd n.txt' && mkdir -p lib && echo z > lib/.yarn-integrity");
  assert.equal(added.exitCode, 0, added.all);
  assert.match(await status(worktree), /^\?\? lib\/$/m);
  assert.match(await status(worktree), /^\?\? "?odd n\.txt"?$/m);
});

test('what a setup the agent wrote created stays in the diff the checks read', async () => {
  const worktree = await worktreeFor(2);
  await prepareEnvironment({ worktreePath: worktree, repoPath: repo.dir, setup: [LEAVES_FILES], agentWritten: true });
  const seen = await status(worktree);
  for (const entry of [/^\?\? node_modules\/$/m, /^\?\? pkg\.egg-info\/$/m, /^ M README\.md$/m])
    assert.match(seen, entry);
});

test("what the build and test tools write is kept out of the run's commits when the repository does not ignore it", async () => {
  await repo.write({
    'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n',
    'pyproject.toml': '[project]\nname = "x"\n',
  });
  await repo.write({ '.gitignore': '.pytest_cache/\n' });
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'rust and python');
  const worktree = await worktreeFor(3);
  const report = await prepareEnvironment({ worktreePath: worktree, repoPath: repo.dir, setup: ['true'] });
  assert.match(
    report.warnings.join('\n'),
    /your repository does not ignore what its build and test tools write \(__pycache__\/ \(python\), \/target\/ \(rust\)\): kept out of the run's commits; add it to \.gitignore/,
  );
  assert.doesNotMatch(report.warnings.join('\n'), /pytest_cache/, 'what the repository ignores is not said');
  const built = await runInSandbox(
    worktree,
    'mkdir -p target/debug src/__pycache__ .pytest_cache && echo b > target/debug/x && echo c > src/__pycache__/a.cpython-311.pyc && echo e > .pytest_cache/v && echo f > src/new.rs',
  );
  assert.equal(built.exitCode, 0, built.all);
  assert.equal((await status(worktree)).trim(), '?? src/new.rs', 'only the new source file is seen');
});
