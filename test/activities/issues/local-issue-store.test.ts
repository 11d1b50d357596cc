import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '../../../src/contracts/errors.js';
import {
  createLocalIssueStore,
  localIssuePath,
  writeLocalIssue,
} from '../../../src/activities/issues/local-issue-store.js';

async function withRepo(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'issues-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('read and list (filter by state and label, sorted by number)', async () => {
  await withRepo(async (dir) => {
    await writeLocalIssue(dir, { number: 12, title: 'Second', body: 'Body two', labels: ['bug'] });
    await writeLocalIssue(dir, {
      number: 3,
      title: 'First',
      body: 'Fix the **thing**.\n\nDetails.',
      labels: ['agent', 'bug'],
    });
    await writeLocalIssue(dir, { number: 7, title: 'Done already', body: 'x', state: 'closed' });
    const store = createLocalIssueStore(dir);
    assert.deepEqual(await store.read(3), {
      number: 3,
      title: 'First',
      body: 'Fix the **thing**.\n\nDetails.',
      labels: ['agent', 'bug'],
      state: 'open',
    });
    assert.deepEqual(
      (await store.list()).map((i) => i.number),
      [3, 7, 12],
    );
    assert.deepEqual(
      (await store.list({ state: 'open' })).map((i) => i.number),
      [3, 12],
    );
    assert.deepEqual(
      (await store.list({ label: 'agent' })).map((i) => i.number),
      [3],
    );
    assert.deepEqual(await createLocalIssueStore(join(dir, 'empty')).list(), []);
  });
});

test('a hand-written file with defaults (no state, no labels) and extra keys', async () => {
  await withRepo(async (dir) => {
    await mkdir(join(dir, '.agent', 'issues'), { recursive: true });
    await writeFile(
      localIssuePath(dir, 5),
      '---\ntitle: "Hand written"\n# a comment a person left\nassignee: me\n---\nThe body.\n',
    );
    const store = createLocalIssueStore(dir);
    assert.deepEqual(await store.read(5), {
      number: 5,
      title: 'Hand written',
      body: 'The body.',
      labels: [],
      state: 'open',
    });
    assert.equal(await store.close(5), 'closed');
    const text = await readFile(localIssuePath(dir, 5), 'utf8');
    assert.match(text, /# a comment a person left/);
    assert.match(text, /assignee: me/);
    assert.match(text, /state: closed/);
    assert.match(text, /\nThe body\.\n$/);
  });
});

test('close is idempotent', async () => {
  await withRepo(async (dir) => {
    await writeLocalIssue(dir, { number: 1, title: 'T', body: 'B' });
    const store = createLocalIssueStore(dir);
    assert.equal(await store.close(1), 'closed');
    assert.equal(await store.close(1), 'already-closed');
    assert.equal((await store.read(1)).state, 'closed');
  });
});

test('comments are readable sections and not appended twice for one key; the body excludes them', async () => {
  await withRepo(async (dir) => {
    await writeLocalIssue(dir, { number: 2, title: 'T', body: 'Original body.' });
    const store = createLocalIssueStore(dir);
    assert.equal(await store.comment(2, 'First comment.', { idempotencyKey: 'wf-1:close' }), 'added');
    assert.equal(await store.comment(2, 'First comment (again).', { idempotencyKey: 'wf-1:close' }), 'already-present');
    assert.equal(await store.comment(2, 'Second.', { idempotencyKey: 'wf-2:close' }), 'added');
    const text = await readFile(localIssuePath(dir, 2), 'utf8');
    assert.equal(text.match(/## Comment \(wf-1:close\)/g)?.length, 1);
    assert.match(
      text,
      /Original body\.\n\n## Comment \(wf-1:close\)\n\nFirst comment\.\n\n## Comment \(wf-2:close\)\n\nSecond\.\n$/,
    );
    assert.equal((await store.read(2)).body, 'Original body.');
  });
});

test('relabel adds and removes, idempotently', async () => {
  await withRepo(async (dir) => {
    await writeLocalIssue(dir, { number: 4, title: 'T', body: 'B', labels: ['todo', 'bug'] });
    const store = createLocalIssueStore(dir);
    assert.deepEqual(await store.relabel(4, { add: ['done'], remove: ['todo'] }), ['bug', 'done']);
    assert.deepEqual(await store.relabel(4, { add: ['done'], remove: ['todo'] }), ['bug', 'done']);
    assert.deepEqual((await store.read(4)).labels, ['bug', 'done']);
  });
});

test('unknown issue → ISSUE_NOT_FOUND naming the path', async () => {
  await withRepo(async (dir) => {
    const store = createLocalIssueStore(dir);
    await assert.rejects(store.read(99), (e: unknown) => {
      assert.ok(AgentError.isInstance(e));
      assert.equal(e.code, 'ISSUE_NOT_FOUND');
      assert.ok(e.message.includes(localIssuePath(dir, 99)), e.message);
      assert.match(e.expected ?? '', /front matter between `---` lines/);
      return true;
    });
    await assert.rejects(store.close(99), /ISSUE_NOT_FOUND|not found/);
    // A file written as the hint says is read.
    await mkdir(join(dir, '.agent', 'issues'), { recursive: true });
    await writeFile(localIssuePath(dir, 99), '---\ntitle: Fix it\nstate: open\n---\nThe body.\n');
    assert.equal((await store.read(99)).title, 'Fix it');
  });
});

test('malformed front matter → AgentError naming the file and what was expected', async () => {
  await withRepo(async (dir) => {
    await mkdir(join(dir, '.agent', 'issues'), { recursive: true });
    const cases: Record<number, [string, RegExp]> = {
      1: ['Just a body, no front matter\n', /no front matter block/],
      2: ['---\ntitle: [unclosed\n---\nbody\n', /invalid YAML/],
      3: ['---\nstate: open\n---\nbody\n', /`title` is missing/],
      4: ['---\ntitle: T\nstate: done\n---\n', /`state` is "done"/],
      5: ['---\ntitle: T\nlabels: bug\n---\n', /`labels` is not a list of strings/],
    };
    const store = createLocalIssueStore(dir);
    for (const [n, [text, problem]] of Object.entries(cases)) {
      await writeFile(localIssuePath(dir, Number(n)), text);
      await assert.rejects(store.read(Number(n)), (e: unknown) => {
        assert.ok(AgentError.isInstance(e));
        assert.equal(e.where, localIssuePath(dir, Number(n)));
        assert.ok(e.message.includes(localIssuePath(dir, Number(n))));
        assert.match(e.message, problem);
        assert.match(e.expected ?? '', /YAML front matter with `title`/);
        return true;
      });
    }
  });
});

test('list by query matches title and body case-insensitively', async () => {
  await withRepo(async (dir) => {
    await writeLocalIssue(dir, { number: 1, title: 'Flaky login test', body: 'x' });
    await writeLocalIssue(dir, { number: 2, title: 'Other', body: 'The LOGIN page is slow' });
    await writeLocalIssue(dir, { number: 3, title: 'Unrelated', body: 'y' });
    const store = createLocalIssueStore(dir);
    assert.deepEqual(
      (await store.list({ query: 'login' })).map((i) => i.number),
      [1, 2],
    );
    assert.deepEqual(
      (await store.list({ query: '  ' })).map((i) => i.number),
      [1, 2, 3],
    );
  });
});

test('a committed issue file is never edited: state, labels and comments live under the git dir', async () => {
  const { makeTempGitRepo } = await import('../../helpers/temp-git-repo.js');
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 4, title: 'Tracked', body: 'committed by the user', labels: ['ready'] });
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'issue 4');
    const committed = await readFile(localIssuePath(repo.dir, 4), 'utf8');
    const store = createLocalIssueStore(repo.dir);
    await store.relabel(4, { add: ['in-progress'], remove: ['ready'] });
    assert.equal(await store.comment(4, 'working on it', { idempotencyKey: 'k1' }), 'added');
    assert.equal(await store.close(4), 'closed');
    assert.equal(await readFile(localIssuePath(repo.dir, 4), 'utf8'), committed, 'the committed file is unchanged');
    assert.equal(await repo.git('status', '--porcelain', '--untracked-files=all'), '', 'the checkout stays clean');
    assert.deepEqual(await store.read(4), {
      number: 4,
      title: 'Tracked',
      body: 'committed by the user',
      labels: ['in-progress'],
      state: 'closed',
    });
    assert.deepEqual(
      (await store.list({ state: 'closed' })).map((i) => i.number),
      [4],
    );
    assert.equal(await store.comment(4, 'working on it', { idempotencyKey: 'k1' }), 'already-present');
    assert.match(await readFile(join(repo.dir, '.git', 'issue-agent', 'issues', '4.md'), 'utf8'), /state: closed/);
  } finally {
    await repo.cleanup();
  }
});
