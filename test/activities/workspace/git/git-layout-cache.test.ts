/**
 * The layout-query memo: which queries qualify, an answer reused while `<dir>/.git` is
 * the same, asked again when it changes (a rewritten worktree `.git` file), never for a
 * directory without its own `.git`, never remembered when git failed.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  createGitLayoutCache,
  isLayoutQuery,
  type LayoutAnswer,
} from '../../../../src/activities/workspace/git/git-layout-cache.js';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'layout-cache-'));
});
after(() => rm(root, { recursive: true, force: true }));

test('only absolute layout queries qualify', () => {
  assert.equal(isLayoutQuery(['rev-parse', '--path-format=absolute', '--git-common-dir']), true);
  assert.equal(isLayoutQuery(['rev-parse', '--path-format=absolute', '--git-common-dir', '--absolute-git-dir']), true);
  assert.equal(isLayoutQuery(['rev-parse', '--path-format=absolute', '--git-path', 'index']), true);
  assert.equal(isLayoutQuery(['rev-parse', '--git-common-dir']), false, 'relative answers depend on the cwd');
  assert.equal(isLayoutQuery(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']), false);
  assert.equal(isLayoutQuery(['rev-parse', '--path-format=absolute', '--git-path']), false);
  assert.equal(isLayoutQuery(['rev-parse', '--path-format=absolute', 'HEAD']), false);
  assert.equal(isLayoutQuery(['status', '--path-format=absolute']), false);
});

function counter(answer: LayoutAnswer): { ask: () => Promise<LayoutAnswer>; count: () => number } {
  let n = 0;
  return {
    ask: async () => {
      n += 1;
      return answer;
    },
    count: () => n,
  };
}

const QUERY = ['rev-parse', '--path-format=absolute', '--git-common-dir'];

test('a worktree: reused while its .git file is the same, asked again when it is rewritten', async () => {
  const dir = join(root, 'wt');
  await mkdir(dir);
  await writeFile(join(dir, '.git'), 'gitdir: /repo/.git/worktrees/wt\n');
  const cache = createGitLayoutCache();
  const q = counter({ exitCode: 0, stdout: '/repo/.git', stderr: '' });
  assert.equal((await cache.answer(dir, QUERY, q.ask)).stdout, '/repo/.git');
  await cache.answer(dir, QUERY, q.ask);
  assert.equal(q.count(), 1);
  await writeFile(join(dir, '.git'), 'gitdir: /elsewhere/.git/worktrees/wt\n');
  await cache.answer(dir, QUERY, q.ask);
  assert.equal(q.count(), 2, 'a changed .git file is a new key');
  await cache.answer(dir, ['rev-parse', '--path-format=absolute', '--git-path', 'index'], q.ask);
  assert.equal(q.count(), 3, 'another query is another key');
});

test('a repository: keyed by its .git directory; replaced directory, new key', async () => {
  const dir = join(root, 'repo');
  await mkdir(join(dir, '.git'), { recursive: true });
  const cache = createGitLayoutCache();
  const q = counter({ exitCode: 0, stdout: `${dir}/.git`, stderr: '' });
  await cache.answer(dir, QUERY, q.ask);
  await cache.answer(dir, QUERY, q.ask);
  assert.equal(q.count(), 1);
  // The old directory stays alive under another name, so the new one has another inode.
  await rename(join(dir, '.git'), join(dir, 'old-git'));
  await mkdir(join(dir, '.git'));
  await cache.answer(dir, QUERY, q.ask);
  assert.equal(q.count(), 2);
});

test('no .git of its own (a subdirectory, or not a repository): never cached', async () => {
  const dir = join(root, 'plain');
  await mkdir(dir);
  const cache = createGitLayoutCache();
  const q = counter({ exitCode: 0, stdout: '/somewhere/.git', stderr: '' });
  await cache.answer(dir, QUERY, q.ask);
  await cache.answer(dir, QUERY, q.ask);
  assert.equal(q.count(), 2);
});

test('a failed answer is not remembered', async () => {
  const dir = join(root, 'broken');
  await mkdir(dir);
  await writeFile(join(dir, '.git'), 'gitdir: /gone\n');
  const cache = createGitLayoutCache();
  const q = counter({ exitCode: 128, stdout: '', stderr: 'fatal: not a git repository' });
  await cache.answer(dir, QUERY, q.ask);
  await cache.answer(dir, QUERY, q.ask);
  assert.equal(q.count(), 2);
});
