/**
 * The watcher's poll against the project's GitHub REST stand-in (real HTTP, the real
 * Octokit client through our watch port): label pickup, a mention from an author with
 * write access, a stranger's and a bot's mention ignored, the agent's own comments
 * ignored, commands parsed, an unchanged repository answered 304 (conditional
 * requests), and the rate-limit headers turned into a wait.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pollWatch } from '../../../src/activities/watch/poll-watch.js';
import { createGitHubWatchClient } from '../../../src/activities/github/octokit-watch-client.js';
import type { PollWatchInput, WatchCursor } from '../../../src/contracts/watch.js';
import { startFakeGitHubServer, type FakeGitHubServer } from '../../helpers/fake-github-server.js';

const TOKEN = ['ghp', 'watchpolltoken0123456789'].join('_');
let server: FakeGitHubServer;

before(async () => {
  server = await startFakeGitHubServer({ token: TOKEN });
});
after(() => server.close());

const deps = () => {
  const port = createGitHubWatchClient({ token: TOKEN, owner: server.owner, repo: server.repo, baseUrl: server.url });
  return {
    github: async () => port,
    issues: () => {
      throw new Error('not used for github');
    },
  };
};

const input = (cursor: WatchCursor, pulls: PollWatchInput['pulls'] = []): PollWatchInput => ({
  repoPath: '/unused',
  issueSource: 'github',
  label: 'agent',
  mention: '@issue-agent',
  cursor,
  pulls,
});

test('label, mention and plain-comment pickup; strangers, bots and the agent itself never trigger; unchanged → 304', async () => {
  const start = new Date(Date.now() - 1000).toISOString();
  server.addIssue({ number: 1, title: 'labelled', labels: ['agent'] });
  server.addIssue({ number: 2, title: 'not labelled', labels: ['bug'] });
  server.addIssue({ number: 3, title: 'mentioned' });
  server.addComment(3, { body: '@issue-agent please fix this', user: 'alice', association: 'MEMBER' });
  server.addComment(3, { body: '@issue-agent do it', user: 'mallory', association: 'NONE' });
  server.addComment(3, { body: '@issue-agent do it', user: 'ci[bot]', association: 'COLLABORATOR', type: 'Bot' });
  server.addComment(3, { body: 'done <!-- issue-agent:progress x -->', user: 'bob', association: 'OWNER' });
  server.addComment(2, { body: 'hey @issue-agent cancel now', user: 'bob', association: 'OWNER' });
  server.addComment(2, { body: '@issue-agent retry use the other API', user: 'bob', association: 'COLLABORATOR' });
  server.addComment(2, { body: '@issue-agent status', user: 'bob', association: 'OWNER' });
  server.addComment(2, { body: 'mail issue-agent@example.com please', user: 'bob', association: 'OWNER' });
  server.addComment(2, { body: 'I say: subtract', user: 'mallory', association: 'CONTRIBUTOR' });

  const first = await pollWatch(deps(), input({ since: start, seenCommentIds: [] }));
  const kinds = first.triggers.map((t) =>
    t.kind === 'command' ? `command:${t.command}:${t.issue}:${t.text}` : `${t.kind}:${t.issue}`,
  );
  assert.deepEqual(kinds, [
    'label:1',
    'mention:3',
    'command:cancel:2:now',
    'command:retry:2:use the other API',
    'command:status:2:',
    // Any other comment of an allowed author: an answer if the issue's run asked (strangers never).
    'comment:2',
  ]);
  const comment = first.triggers.find((t) => t.kind === 'comment');
  assert.ok(comment?.kind === 'comment' && comment.text === 'mail issue-agent@example.com please');
  assert.equal(comment.reply.author, 'bob');
  const mention = first.triggers.find((t) => t.kind === 'mention');
  assert.ok(mention?.kind === 'mention' && mention.text === 'please fix this' && mention.reply.author === 'alice');
  assert.equal(first.waitMs, undefined, 'plenty of rate limit left: no wait');

  // Nothing changed: nothing triggers twice, and once `since` has settled both lists answer 304.
  const settle = await pollWatch(deps(), input(first.cursor));
  assert.deepEqual(
    settle.triggers.filter((t) => t.kind !== 'label'),
    [],
  );
  const before304 = server.counters.notModified;
  const second = await pollWatch(deps(), input(settle.cursor));
  assert.deepEqual(second.triggers, []);
  assert.equal(server.counters.notModified - before304, 2, 'issues and comments were conditional requests');
  assert.ok(
    server.log.some((l) => l.includes('/issues/comments?') && l.includes('since=')),
    'comments read since',
  );

  // A new comment is read once.
  server.addComment(1, { body: '@issue-agent status', user: 'carol', association: 'OWNER' });
  const third = await pollWatch(deps(), input(second.cursor));
  assert.deepEqual(
    third.triggers.filter((t) => t.kind === 'command').map((t) => t.issue),
    [1],
  );
  const fourth = await pollWatch(deps(), input(third.cursor));
  assert.deepEqual(
    fourth.triggers.filter((t) => t.kind !== 'label'),
    [],
  );
});

test('reviews requesting changes on a delivered pull request trigger once, from allowed authors', async () => {
  const s = await startFakeGitHubServer({ token: TOKEN });
  try {
    s.addIssue({ number: 1, title: 'x' });
    const port = createGitHubWatchClient({ token: TOKEN, owner: s.owner, repo: s.repo, baseUrl: s.url });
    await port.createComment(1, 'hello');
    // Open a PR the way delivery does (POST /pulls).
    const res = await fetch(`${s.url}/repos/acme/widgets/pulls`, {
      method: 'POST',
      headers: { authorization: `token ${TOKEN}` },
      body: JSON.stringify({ title: 't', head: 'agent/issue-1', base: 'main', body: '' }),
    });
    const pr = (await res.json()) as { number: number };
    const good = s.addReview(pr.number, { state: 'CHANGES_REQUESTED', body: 'rename it', association: 'MEMBER' });
    s.addReview(pr.number, { state: 'CHANGES_REQUESTED', body: 'spam', association: 'NONE' });
    s.addReview(pr.number, { state: 'APPROVED', body: 'ok', association: 'OWNER' });
    const d = { github: async () => port, issues: () => assert.fail('unused') };
    const out = await pollWatch(
      d,
      input({ since: new Date().toISOString(), seenCommentIds: [] }, [{ pull: pr.number, issue: 1, seen: [] }]),
    );
    assert.deepEqual(out.triggers, [{ kind: 'review', issue: 1, reviewId: good.id, text: 'rename it' }]);
    const again = await pollWatch(d, input(out.cursor, [{ pull: pr.number, issue: 1, seen: [good.id] }]));
    assert.deepEqual(again.triggers, []);
  } finally {
    await s.close();
  }
});

test('rate-limit headers are honoured: a nearly spent limit waits for its reset, a refusal for retry-after', async () => {
  const s = await startFakeGitHubServer({ token: TOKEN });
  try {
    const port = createGitHubWatchClient({ token: TOKEN, owner: s.owner, repo: s.repo, baseUrl: s.url });
    const d = { github: async () => port, issues: () => assert.fail('unused') };
    const cursor = { since: new Date().toISOString(), seenCommentIds: [] };
    s.setRateLimit({ remaining: 2, resetInSeconds: 40 });
    const low = await pollWatch(d, input(cursor));
    assert.ok(low.waitMs !== undefined && low.waitMs > 30_000 && low.waitMs <= 41_000, `wait ${low.waitMs}`);
    assert.match(low.note ?? '', /rate limit/);

    s.setRateLimit({ remaining: 4000, resetInSeconds: 3600 });
    s.failNext(
      /^GET \/repos\/acme\/widgets\/issues$/,
      403,
      { 'retry-after': '7', 'x-ratelimit-remaining': '0' },
      {
        message: 'You have exceeded a secondary rate limit',
      },
    );
    const refused = await pollWatch(d, input(cursor));
    assert.equal(refused.waitMs, 7000);
    assert.deepEqual(refused.triggers, []);
    assert.deepEqual(refused.cursor, cursor, 'the cursor does not move on a refused poll');

    const fine = await pollWatch(d, input(cursor));
    assert.equal(fine.waitMs, undefined);
  } finally {
    await s.close();
  }
});

test('local issues: the label triggers (they have no comment feed)', async () => {
  const { makeTempGitRepo } = await import('../../helpers/temp-git-repo.js');
  const { createLocalIssueStore, writeLocalIssue } =
    await import('../../../src/activities/issues/local-issue-store.js');
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 1, title: 'take me', body: 'b', labels: ['agent'] });
    await writeLocalIssue(repo.dir, { number: 2, title: 'not me', body: 'b', labels: ['bug'] });
    await writeLocalIssue(repo.dir, { number: 3, title: 'closed', body: 'b', labels: ['agent'], state: 'closed' });
    const out = await pollWatch(
      { github: () => assert.fail('no GitHub for local issues'), issues: createLocalIssueStore },
      { ...input({ since: '2024-01-01T00:00:00Z', seenCommentIds: [] }), repoPath: repo.dir, issueSource: 'local' },
    );
    assert.deepEqual(out.triggers, [{ kind: 'label', issue: 1, title: 'take me' }]);
  } finally {
    await repo.cleanup();
  }
});
