/**
 * The harness-side `github` tool against the fake GitHub API (a local HTTP stand-in):
 * the token goes out as the Authorization header and never comes back in a tool result,
 * even when the API echoes it; actions follow the step kind; comments and labels touch
 * only the run's issue and the labels the agent declares. Then the same tool on the
 * local issue store. The token canary is built at run time (no token literal committed).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createIssueSourceFactory } from '../../../src/activities/issues/issue-source-factory.js';
import {
  localIssuePath,
  localIssueSourceFactory,
  writeLocalIssue,
} from '../../../src/activities/issues/local-issue-store.js';
import { createGitHubConnector } from '../../../src/activities/github/github-connector.js';
import { redactorForEnv } from '../../../src/activities/edge/secret-redactor.js';
import { githubToolFor } from '../../../src/activities/tools/github-tool-deps.js';
import { executeTool } from '../../../src/activities/tools/tool-dispatcher.js';
import type { ToolContext } from '../../../src/activities/tools/tool-types.js';
import { startFakeGitHubServer } from '../../helpers/fake-github-server.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { toolContext } from './tool-fixtures.js';

const token = ['gh', 'p_', 'toolCanary', Math.random().toString(36).slice(2), '0123456789'].join('');

function call(ctx: ToolContext, input: Record<string, unknown>) {
  return executeTool({ id: 't1', name: 'github', input }, ctx, 'github-test');
}

test('github tool over the GitHub API: token only as a header, never in a result; per-kind actions', async () => {
  const server = await startFakeGitHubServer({ owner: 'acme', repo: 'widgets', token });
  const repo = await makeTempGitRepo({});
  try {
    server.addIssue({ number: 7, title: 'Add a greeting', body: 'Please add hello.txt', labels: ['agent'] });
    server.addIssue({ number: 8, title: 'Other issue', body: 'not ours' });
    const env = { GITHUB_TOKEN: token, GITHUB_API_URL: server.url, GITHUB_REPOSITORY: 'acme/widgets' };
    const ports = {
      issueSource: createIssueSourceFactory(env, createGitHubConnector(env)),
      boundary: { gitHub: createGitHubConnector(env) },
    };
    const settings = {
      issueSource: 'github' as const,
      repoPath: repo.dir,
      github: { labels: ['agent', 'done'] },
    };
    const { github } = githubToolFor(ports, settings, redactorForEnv(env));
    assert.ok(github);
    const run = { workflowId: 'repo/agent/issue-7', issue: 7, artifactsDir: repo.dir, github };
    const work = toolContext({ stepKind: 'work', run });
    const closure = toolContext({ stepKind: 'closure', run });
    const verification = toolContext({ stepKind: 'verification', readOnly: true, run });

    const view = await call(verification, { action: 'issue_view' });
    assert.equal(view.isError, false, view.content);
    assert.match(view.content, /Issue #7 \(open\): Add a greeting/);
    assert.match(view.content, /Please add hello\.txt/);
    assert.match((await call(work, { action: 'issue_view', number: 8 })).content, /Other issue/);

    // Per kind: verification and work may read, not comment or label.
    const refused = await call(verification, { action: 'comment', body: 'hi' });
    assert.equal(refused.isError, true);
    assert.match(refused.content, /comment is not allowed in a verification step/);
    assert.equal((await call(work, { action: 'set_labels', add: ['done'] })).isError, true);
    assert.equal(server.counters.commentsCreated, 0);

    // Closure comments on its own issue, once per text (a retried step finds it).
    assert.match((await call(closure, { action: 'comment', body: 'Answer: yes.' })).content, /Commented on issue #7/);
    assert.match((await call(closure, { action: 'comment', body: 'Answer: yes.' })).content, /already on issue #7/);
    assert.equal(server.counters.commentsCreated, 1);
    assert.match(server.issue(7)!.comments[0]!.body, /Answer: yes\./);
    const elsewhere = await call(closure, { action: 'comment', body: 'x', number: 8 });
    assert.match(elsewhere.content, /only to this run's issue #7/);
    assert.equal(server.issue(8)!.comments.length, 0);

    // Labels: only declared ones.
    const undeclared = await call(closure, { action: 'set_labels', add: ['wontfix'] });
    assert.match(undeclared.content, /wontfix are not declared by the agent/);
    const labelled = await call(closure, { action: 'set_labels', add: ['done'], remove: ['agent'] });
    assert.equal(labelled.isError, false, labelled.content);
    assert.deepEqual(server.issue(7)!.labels, ['done']);

    // Closing is never an action.
    assert.match((await call(closure, { action: 'close' })).content, /unknown action "close"/);

    // An API error that echoes the credential does not carry it to the model.
    server.failNext(/GET \/repos\/acme\/widgets\/issues\/7$/, 500, {}, { message: `upstream said: token ${token}` });
    const failed = await call(closure, { action: 'issue_view' });
    assert.equal(failed.isError, true);

    // The token was sent, as a header, on every request; it never reached a result.
    assert.ok(server.authHeaders.length > 0);
    assert.ok(server.authHeaders.every((h) => h === `token ${token}` || h === `Bearer ${token}`));
    for (const result of [view, refused, labelled, undeclared, failed])
      assert.ok(!result.content.includes(token), `no token in: ${result.content}`);
  } finally {
    await server.close();
    await repo.cleanup();
  }
});

test('github tool on the local issue store: read, comment and label the run issue; no pull requests', async () => {
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 3, title: 'Local one', body: 'Body of three', labels: ['todo'] });
    const ports = { issueSource: localIssueSourceFactory, boundary: { gitHub: createGitHubConnector({}) } };
    const { github } = githubToolFor(
      ports,
      { issueSource: 'local', repoPath: repo.dir, github: { labels: ['done', 'todo'] } },
      (t) => t,
    );
    const closure = toolContext({
      stepKind: 'closure',
      run: { workflowId: 'w', issue: 3, artifactsDir: repo.dir, github: github! },
    });
    assert.match((await call(closure, { action: 'issue_view' })).content, /Body of three/);
    assert.match((await call(closure, { action: 'comment', body: 'Considered: do it.' })).content, /Commented/);
    const labelled = await call(closure, { action: 'set_labels', add: ['done'], remove: ['todo'] });
    assert.match(labelled.content, /Labels of issue #3: done/);
    assert.match(readFileSync(localIssuePath(repo.dir, 3), 'utf8'), /Considered: do it\./);
    assert.match((await call(closure, { action: 'pr_view', number: 1 })).content, /local issue store/);
  } finally {
    await repo.cleanup();
  }
});

test('without GitHub integration no github tool is offered and a call is refused', async () => {
  const ctx = toolContext({ stepKind: 'closure', run: { workflowId: 'w', issue: 1, artifactsDir: '/tmp' } });
  const result = await call(ctx, { action: 'issue_view' });
  assert.equal(result.isError, true);
  assert.match(result.content, /tool github is not available in a closure step/);
});
