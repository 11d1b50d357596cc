/**
 * The progress comment against the GitHub REST stand-in (real HTTP, real Octokit): one
 * POST when the run starts, then PATCHes of the same comment; a retried first call that
 * lost the comment id finds the comment by its marker instead of posting again; an
 * unchanged text is not sent; no secret reaches the comment. Local issues get the same
 * text in one comment section, replaced in place.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createGitHubWatchClient } from '../../../src/activities/github/octokit-watch-client.js';
import { createProgressActivities } from '../../../src/activities/watch/progress-comment-activity.js';
import {
  createLocalIssueStore,
  localIssuePath,
  writeLocalIssue,
} from '../../../src/activities/issues/local-issue-store.js';
import type { ProgressCommentInput, ProgressView } from '../../../src/contracts/progress-comment.js';
import { startFakeGitHubServer } from '../../helpers/fake-github-server.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const TOKEN = ['ghp', 'progresscomment0123456789'].join('_');
const SECRET = ['sk', 'ant', 'api03', 'progresscanary0123456789'].join('-');
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups) await c();
});

const view = (step: number, extra: Partial<ProgressView> = {}): ProgressView => ({
  steps: ['initial.understand', 'continuation.implement', 'closure.issue'].map((stepId, i) => ({
    stepId,
    mark: i < step ? 'done' : i === step ? 'current' : 'pending',
  })),
  iteration: step + 1,
  maxIterations: 10,
  tokens: 1000 * (step + 1),
  costUsd: 0.01 * (step + 1),
  phase: 'flow',
  uiUrl: 'http://localhost:8233/namespaces/default/workflows/r%2Fagent%2Fissue-1',
  ...extra,
});

test('github: one comment created, then edited in place; a lost id is found again; no secret', async () => {
  const server = await startFakeGitHubServer({ token: TOKEN });
  cleanups.push(() => server.close());
  server.addIssue({ number: 1, title: 'x', labels: ['agent:working'] });
  const port = createGitHubWatchClient({ token: TOKEN, owner: server.owner, repo: server.repo, baseUrl: server.url });
  const activities = createProgressActivities({
    github: async () => port,
    local: () => assert.fail('unused'),
    redact: (t) => t.split(SECRET).join('[redacted]'),
  });
  const base: Omit<ProgressCommentInput, 'view'> = {
    repoPath: '/unused',
    issueSource: 'github',
    issue: 1,
    runKey: 'r/agent/issue-1/run-1',
  };
  const first = await activities.updateProgressComment({ ...base, view: view(0) });
  assert.ok(first.commentId !== undefined);
  // A retry of the first call that never learned the id: found by marker, edited, not posted again.
  const retried = await activities.updateProgressComment({ ...base, view: view(0, { iteration: 2 }) });
  assert.equal(retried.commentId, first.commentId);
  for (const step of [1, 2]) {
    const out = await activities.updateProgressComment({ ...base, commentId: first.commentId!, view: view(step) });
    assert.equal(out.commentId, first.commentId);
  }
  // Unchanged text: nothing sent.
  await activities.updateProgressComment({ ...base, commentId: first.commentId!, view: view(2) });
  await activities.updateProgressComment({
    ...base,
    commentId: first.commentId!,
    view: view(3, {
      verdict: `tests-pass: passed (token ${SECRET})`,
      outcome: {
        kind: 'success',
        reason: 'validated and delivered',
        prUrl: 'https://github.example/acme/widgets/pull/9',
      },
    }),
  });
  const posts = server.log.filter((l) => l.startsWith('POST ') && l.includes('/comments'));
  const patches = server.log.filter((l) => l.startsWith('PATCH ') && l.includes('/issues/comments/'));
  assert.equal(posts.length, 1, server.log.join('\n'));
  assert.equal(patches.length, 4, server.log.join('\n'));
  const comments = server.issue(1)!.comments;
  assert.equal(comments.length, 1);
  const body = comments[0]!.body;
  assert.match(body, /- \[x\] `initial.understand`/);
  assert.match(body, /Outcome: success/);
  assert.match(body, /pull\/9/);
  assert.match(body, /Temporal Web UI/);
  assert.ok(!body.includes(SECRET), 'the secret was redacted');
  assert.ok(!body.includes(TOKEN));
});

test('local: the same text in one comment section, replaced at each edit', async () => {
  const repo = await makeTempGitRepo({});
  cleanups.push(() => repo.cleanup());
  await writeLocalIssue(repo.dir, { number: 4, title: 'local one', body: 'do it', labels: ['agent'] });
  const activities = createProgressActivities({
    github: () => assert.fail('unused'),
    local: createLocalIssueStore,
    redact: (t) => t,
  });
  const base = { repoPath: repo.dir, issueSource: 'local' as const, issue: 4, runKey: 'r/agent/issue-4/run-1' };
  await activities.updateProgressComment({ ...base, view: view(0) });
  await activities.updateProgressComment({ ...base, view: view(1) });
  await activities.updateProgressComment({
    ...base,
    view: view(3, { outcome: { kind: 'success', reason: 'ok', branch: 'agent/issue-4' } }),
  });
  const text = await readFile(localIssuePath(repo.dir, 4), 'utf8').catch(async () => {
    // A committed issue file keeps its state under the git dir: read through the store.
    return JSON.stringify(await createLocalIssueStore(repo.dir).read(4));
  });
  assert.equal(text.match(/## Comment \(progress /g)?.length, 1, text);
  assert.match(text, /Outcome: success/);
  assert.match(text, /branch `agent\/issue-4`/);
  assert.equal((await createLocalIssueStore(repo.dir).read(4)).body, 'do it', 'the body is untouched');
});
