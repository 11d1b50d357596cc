/**
 * The pipeline's issue effects through the GitHub issue source (a fake GitHub API): a
 * transition's labels, handoff comment and close, each applied twice as a retried or
 * resumed activity would be, act once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGitHubClient } from '../../../src/activities/github/octokit-github-client.js';
import { createGitHubIssueSource } from '../../../src/activities/issues/github-issue-source.js';
import { createPipelineActivities } from '../../../src/activities/pipeline/pipeline-activities.js';
import { startFakeGitHubServer } from '../../helpers/fake-github-server.js';

const TOKEN = 'ghp_pipelineFAKE_0123456789';

test('GitHub issues: labels, handoff comment and close are idempotent when repeated', async () => {
  const server = await startFakeGitHubServer({ owner: 'acme', repo: 'widgets', token: TOKEN });
  try {
    server.addIssue({
      number: 8,
      title: 'Add sub',
      body: 'please',
      labels: ['docs:kind:impl', 'P1', 'bug'],
      comments: [],
    });
    const source = createGitHubIssueSource(
      createGitHubClient({ token: TOKEN, owner: 'acme', repo: 'widgets', baseUrl: server.url }),
    );
    const activities = createPipelineActivities({ issueSource: () => source });
    const ref = { repoPath: '/unused', issueSource: 'github' as const, issue: 8 };

    assert.deepEqual(await activities.readIssueLabels(ref), { labels: ['docs:kind:impl', 'P1', 'bug'], state: 'open' });
    for (let i = 0; i < 2; i++) {
      const labels = await activities.applyPipelineLabels({
        ...ref,
        add: ['docs:done'],
        remove: ['docs:kind:impl', 'P1'],
      });
      assert.deepEqual([...labels].sort(), ['bug', 'docs:done']);
    }
    const comment = { ...ref, text: 'Implemented: sub()', idempotencyKey: 'pipeline:w:r:cycle-3' };
    assert.equal(await activities.postPipelineComment(comment), 'added');
    assert.equal(await activities.postPipelineComment(comment), 'already-present');
    assert.equal(await activities.closePipelineIssue(ref), 'closed');
    assert.equal(await activities.closePipelineIssue(ref), 'already-closed');
    const c = server.counters;
    assert.equal(c.commentsCreated, 1);
    assert.equal(c.issuesClosed, 1);
    assert.equal(c.labelsAdded, 1);
    assert.equal(c.labelsRemoved, 2);
  } finally {
    await server.close();
  }
});
