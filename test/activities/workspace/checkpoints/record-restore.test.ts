/**
 * Worktree checkpoints on real repositories: recording keeps the agent's branch, HEAD
 * and index untouched while capturing uncommitted and untracked files; restoring brings
 * a later state back to the checkpoint (branch, index and files, later files removed,
 * ignored files kept). Hooks and fsmonitor planted in the repository never run.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { recordWorktreeCheckpoint } from '../../../../src/activities/workspace/checkpoints/record-checkpoint.js';
import {
  checkpointIndexOf,
  indexCheckpoint,
  invalidateIndex,
} from '../../../../src/activities/workspace/checkpoints/checkpoint-files.js';
import { restoreWorktreeCheckpoint } from '../../../../src/activities/workspace/checkpoints/restore-checkpoint.js';
import {
  listCheckpoints,
  removeCheckpoints,
} from '../../../../src/activities/workspace/checkpoints/checkpoint-refs.js';
import { checkpointNamespace, checkpointRef } from '../../../../src/contracts/worktree-checkpoint.js';
import { harnessGitEnv } from '../../../../src/activities/workspace/git/git.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';
import { execa } from 'execa';

const WORKFLOW_ID = 'repo-1234abcd/issue-agent/issue-7';
const NS = checkpointNamespace(WORKFLOW_ID, 7);

let repo: TempGitRepo;
let tree: string;
let leaks: string;

/** The test's own git (as the agent would run it: its own index and HEAD), with the planted code off. */
async function gitIn(cwd: string, ...args: string[]): Promise<string> {
  const off = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];
  const r = await execa('git', [...off, ...args], { cwd, env: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } });
  return r.stdout.trim();
}
const wt = (...args: string[]): Promise<string> => gitIn(tree, ...args);
const main = (...args: string[]): Promise<string> => gitIn(repo.dir, ...args);

function indexDigest(): string {
  return createHash('sha256')
    .update(readFileSync(join(repo.dir, '.git', 'worktrees', 'issue-7', 'index')))
    .digest('hex');
}

/** Hooks and an fsmonitor that leave a file behind if anything runs them. */
function armRepository(): void {
  leaks = join(repo.dir, '.git', 'leaks');
  mkdirSync(leaks);
  const hooks = join(repo.dir, '.git', 'hooks');
  mkdirSync(hooks, { recursive: true });
  for (const hook of ['pre-commit', 'post-commit', 'reference-transaction', 'post-checkout', 'post-index-change']) {
    writeFileSync(join(hooks, hook), `#!/bin/sh\ntouch "${leaks}/${hook}"\n`);
    chmodSync(join(hooks, hook), 0o755);
  }
  writeFileSync(join(repo.dir, '.git', 'fsmonitor.sh'), `#!/bin/sh\ntouch "${leaks}/fsmonitor"\n`);
  chmodSync(join(repo.dir, '.git', 'fsmonitor.sh'), 0o755);
}

beforeEach(async () => {
  repo = await makeTempGitRepo({
    files: { 'src/a.txt': 'a1\n', 'src/gone.txt': 'will be deleted\n', '.gitignore': 'build/\n' },
  });
  tree = join(repo.dir, '.git', 'agent', 'worktrees', 'issue-7');
  await repo.git('worktree', 'add', '-q', '-b', 'agent/issue-7', tree, 'main');
  // From here on the repository is hostile: its hooks and fsmonitor would run under plain git.
  await repo.git('config', '--unset', 'core.hooksPath');
  armRepository();
  await repo.git('config', 'core.fsmonitor', join(repo.dir, '.git', 'fsmonitor.sh'));
});

afterEach(async () => {
  assert.deepEqual(readdirSync(leaks), [], 'no hook and no fsmonitor ran');
  await repo.cleanup();
});

/** Step 1 of a run: a commit, a staged edit, an unstaged edit, an untracked file, an ignored one. */
async function stepOneChanges(): Promise<void> {
  await writeFile(join(tree, 'src/committed.txt'), 'committed in step 1\n');
  await wt('add', 'src/committed.txt');
  await wt('commit', '-q', '-m', 'step 1');
  await writeFile(join(tree, 'src/staged.txt'), 'staged\n');
  await wt('add', 'src/staged.txt');
  await writeFile(join(tree, 'src/a.txt'), 'a2 unstaged\n');
  await rm(join(tree, 'src/gone.txt'));
  await writeFile(join(tree, 'untracked.txt'), 'untracked in step 1\n');
  mkdirSync(join(tree, 'build'));
  await writeFile(join(tree, 'build/out.bin'), 'ignored build output\n');
}

test('recording captures uncommitted and untracked files; branch, HEAD and index stay as they were', async () => {
  await stepOneChanges();
  const head = await wt('rev-parse', 'HEAD');
  const branch = await wt('symbolic-ref', 'HEAD');
  const index = indexDigest();
  const status = await wt('status', '--porcelain');

  const recorded = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 1), 'step 1');

  assert.equal(await wt('rev-parse', 'HEAD'), head, 'HEAD unchanged');
  assert.equal(await wt('symbolic-ref', 'HEAD'), branch, 'still on the agent branch');
  assert.equal(indexDigest(), index, 'the agent index file is byte for byte the same');
  assert.equal(await wt('status', '--porcelain'), status, 'what is staged stays staged');
  assert.equal(await main('rev-parse', `${recorded.commit}^1`), head, 'the checkpoint parent is HEAD');
  assert.equal(await main('rev-parse', `${NS}/step-1`), recorded.commit, 'on the private ref');
  const files = (await main('ls-tree', '-r', '--name-only', recorded.commit)).split('\n').sort();
  assert.deepEqual(files, [
    '.gitignore',
    'README.md',
    'src/a.txt',
    'src/committed.txt',
    'src/staged.txt',
    'untracked.txt',
  ]);
  assert.equal(await main('show', `${recorded.commit}:src/a.txt`), 'a2 unstaged');
  assert.deepEqual(await listCheckpoints(repo.dir, NS), [{ ref: `${NS}/step-1`, step: 1, commit: recorded.commit }]);
  assert.equal(await main('branch', '--list', '--format=%(refname:short)'), 'agent/issue-7\nmain', 'no new branch');
});

test('nested repositories with no commit are left out, not a reason to record nothing', async () => {
  await writeFile(join(tree, 'kept.txt'), "the step's work\n");
  for (const dir of ['sub', 'fixtures/we ird']) {
    mkdirSync(join(tree, dir), { recursive: true });
    await gitIn(join(tree, dir), 'init', '-q');
    // The nested repository's own filter: git must never run it while recording.
    await gitIn(join(tree, dir), 'config', 'filter.evil.clean', `touch ${join(leaks, 'nested-filter')}`);
    await writeFile(join(tree, dir, '.gitattributes'), '* filter=evil\n');
    await writeFile(join(tree, dir, 'inner.txt'), 'inner\n');
  }
  const recorded = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 1), 'step 1');
  const files = (await main('ls-tree', '-r', '--name-only', recorded.commit)).split('\n');
  assert.ok(files.includes('kept.txt'), files.join(','));
  assert.ok(!files.some((f) => f.startsWith('sub') || f.startsWith('fixtures')), files.join(','));
});

/**
 * A same-size rewrite within the second of the worktree index's write: git compares times
 * to the second here, so only the index's own time marks the entry as doubtful (racy).
 * Returns once the rewrite really landed in that second (it retries when the second ran out).
 */
async function racyRewrite(path: string): Promise<void> {
  const index = join(repo.dir, '.git', 'worktrees', 'issue-7', 'index');
  for (let attempt = 0; attempt < 5; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
    await writeFile(join(tree, path), 'before\n');
    await wt('add', path);
    await wt('commit', '-q', '-m', 'recorded by the agent');
    await writeFile(join(tree, path), 'after!\n');
    const second = (file: string): number => Math.floor(statSync(file).mtimeMs / 1000);
    if (second(join(tree, path)) === second(index)) {
      // The checkpoint comes a second later, as it would after the step's last tool call.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      return;
    }
  }
  throw new Error('could not rewrite within the second of the index write (a very busy machine)');
}

test('a same-size edit in the second of the last index write is recorded (the stat cache is not trusted past it)', async () => {
  await racyRewrite('src/racy.txt');
  const temporary = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 1), 'step 1');
  assert.equal(await main('show', `${temporary.commit}:src/racy.txt`), 'after!', 'from a temporary index');
  const index = checkpointIndexOf(join(repo.dir, '.git', 'agent', 'racy.json'));
  const kept = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 2), 'step 2', { index });
  assert.equal(await main('show', `${kept.commit}:src/racy.txt`), 'after!', "from the checkpoint's own index");
});

test('restoring brings back the files, branch and index of a checkpoint and removes what came later', async () => {
  await stepOneChanges();
  const headAtOne = await wt('rev-parse', 'HEAD');
  const one = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 1), 'step 1');

  // Step 2: commits, edits, deletes and creates.
  await writeFile(join(tree, 'src/a.txt'), 'a3 from step 2\n');
  await writeFile(join(tree, 'step2.txt'), 'created by step 2\n');
  mkdirSync(join(tree, 'newdir'));
  await writeFile(join(tree, 'newdir/deep.txt'), 'created by step 2\n');
  await wt('add', '-A');
  await wt('commit', '-q', '-m', 'step 2');
  await rm(join(tree, 'untracked.txt'));
  await writeFile(join(tree, 'late-untracked.txt'), 'untracked from step 2\n');
  await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 2), 'step 2');

  const restored = await restoreWorktreeCheckpoint(tree, one.commit);

  assert.equal(restored.head, headAtOne);
  assert.equal(await wt('rev-parse', 'HEAD'), headAtOne, 'the branch is back at step 1 (step 2 commit left it)');
  assert.equal(await wt('symbolic-ref', 'HEAD'), 'refs/heads/agent/issue-7');
  assert.equal(await wt('diff', '--cached', '--name-only'), '', 'index matches HEAD');
  assert.equal(await readFile(join(tree, 'src/a.txt'), 'utf8'), 'a2 unstaged\n');
  assert.equal(
    await readFile(join(tree, 'untracked.txt'), 'utf8'),
    'untracked in step 1\n',
    'a file deleted later is back',
  );
  assert.equal(await readFile(join(tree, 'src/staged.txt'), 'utf8'), 'staged\n');
  for (const later of ['step2.txt', 'newdir/deep.txt', 'late-untracked.txt', 'src/gone.txt']) {
    assert.equal(existsSync(join(tree, later)), false, `${later} is gone`);
  }
  assert.equal(existsSync(join(tree, 'build/out.bin')), true, 'ignored files are kept');
  // Recording again gives the same tree: the worktree is exactly the checkpoint.
  const again = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 3), 'again');
  assert.equal(again.tree, await main('rev-parse', `${one.commit}^{tree}`));
});

test('a missing checkpoint is a clear WORKTREE_FAILED error; removal drops the refs and the marker', async () => {
  await assert.rejects(restoreWorktreeCheckpoint(tree, 'f'.repeat(40)), (err: Error & { code?: string }) => {
    assert.equal(err.code, 'WORKTREE_FAILED');
    assert.match(err.message, /checkpoint f{40} is missing/);
    return true;
  });
  await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 1), 'step 1');
  await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 2), 'step 2');
  const other = await recordWorktreeCheckpoint(tree, checkpointRef('repo/other/issue-7', 7, 1), 'other agent');
  assert.deepEqual((await removeCheckpoints(repo.dir, NS)).sort(), [`${NS}/step-1`, `${NS}/step-2`]);
  assert.deepEqual(await listCheckpoints(repo.dir, NS), []);
  assert.equal(await main('rev-parse', 'refs/agent/other/issue-7/step-1'), other.commit, 'another namespace is kept');
  assert.deepEqual(await removeCheckpoints(repo.dir, NS), [], 'removing again is a no-op');
});

test('GIT_INDEX_FILE reaches git only through the explicit option, never from the environment', () => {
  const env = harnessGitEnv({ PATH: '/bin', GIT_INDEX_FILE: '/evil/index' }, { GIT_INDEX_FILE: '/evil/too' });
  assert.equal(env['GIT_INDEX_FILE'], undefined);
  const explicit = harnessGitEnv({ PATH: '/bin' }, {}, { temporaryIndexFile: '/tmp/x/index' });
  assert.equal(explicit['GIT_INDEX_FILE'], '/tmp/x/index');
  assert.throws(() => harnessGitEnv({}, {}, { temporaryIndexFile: 'relative/index' }), /absolute/);
});

test('a checkpoint from named paths (issue 29) records the same tree a full scan does, without scanning', async () => {
  const dir = join(repo.dir, '.git', 'agent', 'checkpoints', 'index-test');
  mkdirSync(dir, { recursive: true });
  const index = checkpointIndexOf(join(dir, 'issue-7.json'));
  await stepOneChanges();
  const one = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 1), 'step 1', { index });
  assert.equal(one.scanned, true, 'the first checkpoint scans');
  assert.equal(await indexCheckpoint(index), one.commit, 'the index is at the checkpoint it recorded');

  // Step 2 edits one file and creates one (as the editor tool would), in a new directory too.
  await writeFile(join(tree, 'src/a.txt'), 'a3 edited by step 2\n');
  mkdirSync(join(tree, 'docs/deep'), { recursive: true });
  await writeFile(join(tree, 'docs/deep/new[1].md'), 'created by step 2\n');
  const paths = ['src/a.txt', 'docs/deep/new[1].md'];
  const two = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 2), 'step 2', {
    index,
    changedSince: { from: one.commit, paths },
  });
  assert.equal(two.scanned, false, 'only the named paths were staged');
  const full = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 3), 'full scan');
  assert.equal(two.tree, full.tree, 'the same tree as a full scan');

  // An unlisted change is not seen by the named path (so the record must be complete) ...
  await writeFile(join(tree, 'unlisted.txt'), 'not in the record\n');
  const three = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 4), 'step 3', {
    index,
    changedSince: { from: two.commit, paths: [] },
  });
  assert.equal(three.tree, two.tree, 'nothing named, nothing staged');
  // ... and an index not at `from` (a validator ran, a reset) scans.
  await invalidateIndex(index);
  const four = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 5), 'step 4', {
    index,
    changedSince: { from: three.commit, paths: [] },
  });
  assert.equal(four.scanned, true);
  assert.notEqual(four.tree, three.tree, 'the scan sees the unlisted file');
});

test('a named path git refuses (ignored) falls back to the scan, with the same tree as a full one', async () => {
  const dir = join(repo.dir, '.git', 'agent', 'checkpoints', 'index-test');
  mkdirSync(dir, { recursive: true });
  const index = checkpointIndexOf(join(dir, 'issue-7.json'));
  const one = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 1), 'step 1', { index });
  mkdirSync(join(tree, 'build'));
  await writeFile(join(tree, 'build/out.bin'), 'ignored\n');
  await writeFile(join(tree, 'src/a.txt'), 'edited\n');
  const two = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 2), 'step 2', {
    index,
    changedSince: { from: one.commit, paths: ['build/out.bin', 'src/a.txt'] },
  });
  assert.equal(two.scanned, true);
  const full = await recordWorktreeCheckpoint(tree, checkpointRef(WORKFLOW_ID, 7, 3), 'full scan');
  assert.equal(two.tree, full.tree);
  await removeCheckpoints(tree, NS);
});
