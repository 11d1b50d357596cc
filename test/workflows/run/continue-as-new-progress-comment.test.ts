/**
 * A run that keeps a progress comment (issue 26) and continues as new (issue 29) edits
 * the one comment it created: the comment id is carried into the next run's input, so
 * the continued run neither posts a second comment nor has to search the issue's
 * comments for its marker again. Real dev server, real git with a bare `origin`, the
 * project's GitHub REST stand-in behind the real Octokit client.
 */
import assert from 'node:assert/strict';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { execa } from 'execa';
import { DEMO_DIR } from '../../../src/dev/sample-repo.js';
import { startFakeGitHubServer } from '../../helpers/fake-github-server.js';
import { runScenario } from '../../helpers/run-scenario.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';

after(teardownEnv);

const TOKEN = ['ghp', 'continuedcomment0123456789'].join('_');

test('a run that continues as new edits the progress comment it created, never a second one', async () => {
  const server = await startFakeGitHubServer({ token: TOKEN });
  server.addIssue({
    number: 1,
    title: 'sum() subtracts',
    body: 'sum(2, 3) returns -1; it should return 5.',
    labels: [],
  });
  const remote = await realpath(await mkdtemp(join(tmpdir(), 'can-comment-remote-')));
  await execa('git', ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
  try {
    const { result, workflowId } = await runScenario({
      session: join(DEMO_DIR, 'session.json'),
      input: {
        issueSource: 'github',
        delivery: 'branch',
        tuning: { historyEventBound: 60 },
        progressComment: { uiWorkflowsUrl: 'http://127.0.0.1:8233/namespaces/default/workflows/' },
      },
      workerEnv: (modelUrl) => ({
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ANTHROPIC_BASE_URL: modelUrl,
        GITHUB_TOKEN: TOKEN,
        GITHUB_API_URL: server.url,
        GITHUB_REPOSITORY: 'acme/widgets',
      }),
      during: async (_handle, _model, run) => {
        // Before the first step pushes anything: the run's branch goes to this origin.
        await execa('git', ['-C', run.repoPath, 'remote', 'add', 'origin', remote]).catch(() => undefined);
      },
    });
    assert.equal(result.outcome, 'success', result.reason);

    const env = await testEnv();
    let runs = 0;
    for await (const _ of env.client.workflow.list({ query: `WorkflowId="${workflowId}"` })) runs += 1;
    assert.ok(runs >= 2, `the run continued as new (${runs} runs)`);

    const progress = server.issue(1)!.comments.filter((c) => c.body.includes('issue-agent:progress'));
    assert.equal(
      progress.length,
      1,
      `one progress comment: ${server.log.filter((l) => l.includes('comments')).join('\n')}`,
    );
    assert.match(progress[0]!.body, /Outcome: success/);
    // Only the first update looked for an earlier comment (before it, the issue's own comments
    // were read for the prompt); every later one, in the continued runs too, carried the id.
    // The delivery reads the issue and its comments again at the end (its own idempotency).
    const created = server.log.indexOf('POST /repos/acme/widgets/issues/1/comments');
    const delivery = server.log.indexOf('GET /repos/acme/widgets/issues/1', created);
    assert.ok(created > 0 && delivery > created, server.log.join('\n'));
    const searchesAfterCreate = server.log
      .slice(created, delivery)
      .filter((l) => l.startsWith('GET /repos/acme/widgets/issues/1/comments'));
    assert.deepEqual(searchesAfterCreate, [], server.log.join('\n'));
  } finally {
    await server.close();
  }
});
