import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentError } from '../../../src/contracts/errors.js';
import { boundaryDepsFromEnv, runBoundaryHook } from '../../../src/activities/deliver/run-boundary-hook.js';
import { runGitHubBoundaryHook } from '../../../src/activities/deliver/github-boundary-hook.js';
import { FAKE_TOKEN, githubScenario, type GitHubScenario } from './github-fixture.js';

async function withScenario(
  options: Parameters<typeof githubScenario>[0],
  body: (s: GitHubScenario) => Promise<void>,
): Promise<void> {
  const s = await githubScenario(options);
  try {
    await body(s);
  } finally {
    await s.cleanup();
  }
}

/** Runs the hook on `input`; asserts its status, and its effects as [name, status] in order. */
async function runExpecting(
  deps: Parameters<typeof runBoundaryHook>[0],
  input: Parameters<typeof runBoundaryHook>[1],
  status: string,
  effects: readonly (readonly [string, string])[],
): Promise<Awaited<ReturnType<typeof runBoundaryHook>>> {
  const report = await runBoundaryHook(deps, input);
  assert.equal(report.status, status, JSON.stringify(report, null, 2));
  assert.deepEqual(
    report.effects.map((e) => [e.name, e.status]),
    effects,
  );
  return report;
}

/** Everything an error could show a person or a log. */
function errorText(error: unknown): string {
  if (!AgentError.isInstance(error)) return String(error instanceof Error ? error.stack : error);
  return JSON.stringify({
    message: error.message,
    describe: error.describe(),
    where: error.where,
    expected: error.expected,
    details: error.details,
    stack: error.stack,
    cause: String(error.cause),
  });
}

test('full success: branch on the remote, one PR with the evidence table, one comment, labels, closed; a re-run finds everything done', async () => {
  await withScenario({}, async (s) => {
    const deps = boundaryDepsFromEnv(s.env);
    const report = await runExpecting(deps, s.input, 'success', [
      ['push', 'done'],
      ['open-pr', 'done'],
      ['comment', 'done'],
      ['label', 'done'],
      ['close-issue', 'done'],
    ]);
    assert.deepEqual(report.pending, []);
    assert.equal(await s.remoteHead('agent/issue-7'), await s.repo.git('rev-parse', 'agent/issue-7'));

    const [pr, ...others] = s.server.pulls();
    assert.equal(others.length, 0);
    assert.ok(pr);
    assert.equal(report.prUrl, `https://github.example/acme/widgets/pull/${pr.number}`);
    assert.equal(pr.head, 'agent/issue-7');
    assert.equal(pr.base, 'main');
    assert.equal(pr.title, 'Add a greeting (#7)');
    assert.match(pr.body, /\| Validator \| Result \| Command \| Exit code \| Summary \|/);
    assert.match(
      pr.body,
      /\| `git-clean` \| passed \| `git status --porcelain` \| 0 \| `git status --porcelain` passed \(no output\) \|/,
    );
    assert.match(
      pr.body,
      /\| `tests-pass` \| passed \| `npm test` \| 0 \| npm test passed \\\| 12 tests \|/,
      'pipes in cells are escaped',
    );
    assert.match(pr.body, /\nCloses #7$/);
    assert.doesNotMatch(pr.body, /fixes #12/i, 'a closing keyword in the model summary is defused');
    assert.match(pr.body, /fixes issue #12/);

    const issue = s.server.issue(7)!;
    assert.equal(issue.state, 'closed');
    assert.deepEqual(issue.labels.sort(), ['agent', 'done']);
    assert.equal(issue.comments.length, 1);
    assert.match(
      issue.comments[0]!.body,
      /Run `agent-issue-7` finished .* Pull request: https:\/\/github\.example\/acme\/widgets\/pull\/\d+/,
    );
    assert.match(issue.comments[0]!.body, /<!-- issue-agent:agent-issue-7:completion -->/);

    const before = { ...s.server.counters };
    const again = await runBoundaryHook(deps, s.input);
    assert.equal(again.status, 'success');
    assert.deepEqual(
      again.effects.map((e) => e.status),
      ['already-done', 'already-done', 'already-done', 'already-done', 'already-done'],
      JSON.stringify(again, null, 2),
    );
    assert.equal(again.prUrl, report.prUrl);
    const after = { ...s.server.counters };
    assert.deepEqual({ ...after, requests: 0 }, { ...before, requests: 0 }, 'no effect repeated');
    assert.deepEqual([after.prsCreated, after.commentsCreated, after.issuesClosed], [1, 1, 1]);
    assert.ok(
      s.server.authHeaders.every((h) => h === `token ${FAKE_TOKEN}`),
      'the token travels only in the Authorization header',
    );
  });
});

test('label-only: labels set, comment posted, the issue stays open; no "Closes" line in the PR', async () => {
  await withScenario({ closureAction: 'label-only' }, async (s) => {
    await runExpecting(boundaryDepsFromEnv(s.env), s.input, 'success', [
      ['push', 'done'],
      ['open-pr', 'done'],
      ['comment', 'done'],
      ['label', 'done'],
      ['close-issue', 'skipped'],
    ]);
    assert.equal(s.server.issue(7)!.state, 'open');
    assert.equal(s.server.counters.issuesClosed, 0);
    assert.deepEqual(s.server.issue(7)!.labels.sort(), ['agent', 'done']);
    assert.doesNotMatch(s.server.pulls()[0]!.body, /Closes #7/);
  });
});

test('close: no label effect, labels untouched', async () => {
  await withScenario({ closureAction: 'close' }, async (s) => {
    const report = await runBoundaryHook(boundaryDepsFromEnv(s.env), s.input);
    assert.deepEqual(
      report.effects.map((e) => e.name),
      ['push', 'open-pr', 'comment', 'close-issue'],
    );
    assert.deepEqual(s.server.issue(7)!.labels, ['agent', 'in-progress']);
    assert.equal(s.server.issue(7)!.state, 'closed');
  });
});

test('a 500 on PR creation → partial with pending actions and the issue untouched; a retry opens exactly one PR', async () => {
  await withScenario({}, async (s) => {
    const deps = boundaryDepsFromEnv(s.env);
    s.server.failNext(/^POST \/repos\/acme\/widgets\/pulls$/, 500, {}, { message: 'Server Error' });
    const report = await runExpecting(deps, s.input, 'partial', [
      ['push', 'done'],
      ['open-pr', 'failed'],
      ['comment', 'skipped'],
      ['label', 'skipped'],
      ['close-issue', 'skipped'],
    ]);
    assert.match(report.effects[1]!.detail, /GITHUB_UNAVAILABLE/);
    assert.deepEqual(report.pending, ['open a pull request from agent/issue-7 into main']);
    assert.equal(report.prUrl, undefined);
    assert.equal(s.server.counters.prsCreated, 0);
    assert.equal(s.server.issue(7)!.state, 'open');
    assert.equal(s.server.counters.commentsCreated, 0);

    const retry = await runBoundaryHook(deps, s.input);
    assert.equal(retry.status, 'success', JSON.stringify(retry, null, 2));
    assert.deepEqual(
      retry.effects.map((e) => e.status),
      ['already-done', 'done', 'done', 'done', 'done'],
    );
    assert.equal(s.server.pulls().length, 1);
    assert.equal(s.server.counters.prsCreated, 1);
  });
});

test('a rate-limit 403 (x-ratelimit-remaining 0) → GITHUB_RATE_LIMITED, retryable, retryAfterMs from x-ratelimit-reset', async () => {
  await withScenario({}, async (s) => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    s.server.failNext(
      /^GET \/repos\/acme\/widgets\/pulls$/,
      403,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      { message: 'API rate limit exceeded for user ID 1.' },
    );
    await assert.rejects(runBoundaryHook(boundaryDepsFromEnv(s.env), s.input), (error: unknown) => {
      assert.ok(AgentError.isInstance(error));
      assert.equal(error.code, 'GITHUB_RATE_LIMITED');
      assert.equal(error.retryable, true);
      const wait = error.details?.['retryAfterMs'];
      assert.equal(typeof wait, 'number');
      assert.ok((wait as number) > 100_000 && (wait as number) <= 121_000, `retryAfterMs ${String(wait)}`);
      assert.ok(!errorText(error).includes(FAKE_TOKEN));
      return true;
    });
    assert.equal(s.server.counters.prsCreated, 0);
  });
});

test('a secondary rate limit (403 with retry-after) → retryAfterMs from retry-after', async () => {
  await withScenario({}, async (s) => {
    s.server.failNext(
      /^POST \/repos\/acme\/widgets\/issues\/7\/comments$/,
      403,
      { 'retry-after': '30' },
      { message: 'You have exceeded a secondary rate limit.' },
    );
    await assert.rejects(runBoundaryHook(boundaryDepsFromEnv(s.env), s.input), (error: unknown) => {
      assert.ok(AgentError.isInstance(error));
      assert.equal(error.code, 'GITHUB_RATE_LIMITED');
      assert.equal(error.details?.['retryAfterMs'], 30_000);
      return true;
    });
  });
});

test('missing GITHUB_TOKEN → GITHUB_AUTH naming the variable, before anything is pushed', async () => {
  await withScenario({}, async (s) => {
    const { GITHUB_TOKEN: _omitted, ...env } = s.env;
    await assert.rejects(runBoundaryHook(boundaryDepsFromEnv(env), s.input), (error: unknown) => {
      assert.ok(AgentError.isInstance(error));
      assert.equal(error.code, 'GITHUB_AUTH');
      assert.equal(error.where, 'GITHUB_TOKEN');
      assert.match(error.message, /GITHUB_TOKEN is not set/);
      return true;
    });
    assert.equal(await s.remoteHead('agent/issue-7'), '');
    assert.equal(s.server.counters.requests, 0);
  });
});

test('the token never appears in errors or reports (bad credentials, 404, 500, network down, failed push)', async () => {
  await withScenario({}, async (s) => {
    // A token the server rejects: 401 → GITHUB_AUTH, not retryable.
    const wrong = `${FAKE_TOKEN}-wrong`;
    await assert.rejects(
      runBoundaryHook(boundaryDepsFromEnv({ ...s.env, GITHUB_TOKEN: wrong }), s.input),
      (error: unknown) => {
        assert.ok(AgentError.isInstance(error));
        assert.equal(error.code, 'GITHUB_AUTH');
        assert.equal(error.retryable, false);
        assert.match(error.message, /check GITHUB_TOKEN/);
        assert.ok(!errorText(error).includes(wrong) && !errorText(error).includes(FAKE_TOKEN));
        return true;
      },
    );

    // 404 on the issue while commenting → failed effect; its detail carries no token.
    const deps = boundaryDepsFromEnv(s.env);
    s.server.failNext(/^GET \/repos\/acme\/widgets\/issues\/7$/, 404, {}, { message: `Not Found ${FAKE_TOKEN}` });
    const report = await runGitHubBoundaryHook(deps, s.input);
    assert.equal(report.status, 'partial');
    assert.match(JSON.stringify(report), /GITHUB_REQUEST/);
    assert.ok(!JSON.stringify(report).includes(FAKE_TOKEN), JSON.stringify(report));

    // A remote that refuses the push: git's message is reported, redacted.
    await s.repo.git('remote', 'set-url', 'origin', `${s.remoteDir}-missing-${FAKE_TOKEN}`);
    await s.repo.git('-C', s.input.worktreePath, 'commit', '--quiet', '--allow-empty', '-m', 'more');
    const pushFailed = await runGitHubBoundaryHook(deps, s.input);
    assert.equal(pushFailed.effects[0]?.status, 'failed');
    assert.match(pushFailed.effects[0]?.detail ?? '', /\[REDACTED\]/);
    assert.ok(!JSON.stringify(pushFailed).includes(FAKE_TOKEN), JSON.stringify(pushFailed));

    // The API unreachable → GITHUB_UNAVAILABLE (retryable), still without the token.
    await s.repo.git('remote', 'set-url', 'origin', s.remoteDir);
    const closedPort = await (async () => {
      const { startFakeGitHubServer } = await import('../../helpers/fake-github-server.js');
      const gone = await startFakeGitHubServer();
      await gone.close();
      return gone.url;
    })();
    const offline = await runGitHubBoundaryHook(boundaryDepsFromEnv({ ...s.env, GITHUB_API_URL: closedPort }), s.input);
    assert.equal(offline.effects[1]?.status, 'failed');
    assert.match(offline.effects[1]?.detail ?? '', /GITHUB_UNAVAILABLE/);
    assert.ok(!JSON.stringify(offline).includes(FAKE_TOKEN));
  });
});

test('mode local is refused by the GitHub hook', async () => {
  await withScenario({}, async (s) => {
    await assert.rejects(
      runGitHubBoundaryHook(boundaryDepsFromEnv(s.env), { ...s.input, mode: 'local' }),
      /--deliver pr opens a pull request/,
    );
  });
});

test('uncommitted work in the worktree → push failed, nothing sent to GitHub', async () => {
  await withScenario({}, async (s) => {
    await s.repo.write({ '.worktrees/issue-7/extra.txt': 'not committed\n' });
    const report = await runBoundaryHook(boundaryDepsFromEnv(s.env), s.input);
    assert.equal(report.status, 'failed', JSON.stringify(report, null, 2));
    assert.match(report.effects[0]?.detail ?? '', /uncommitted change/);
    assert.match(report.pending[0] ?? '', /commit or discard the changes/);
    assert.equal(await s.remoteHead('agent/issue-7'), '');
    assert.equal(s.server.counters.prsCreated, 0);
  });
});

test('a branch with no commits ahead of its base: no push, no PR; the issue is still commented and closed', async () => {
  await withScenario({ closureAction: 'close' }, async (s) => {
    await s.repo.git('-C', s.input.worktreePath, 'reset', '--quiet', '--hard', 'main');
    await runExpecting(boundaryDepsFromEnv(s.env), s.input, 'success', [
      ['push', 'skipped'],
      ['open-pr', 'skipped'],
      ['comment', 'done'],
      ['close-issue', 'done'],
    ]);
    assert.match(s.server.issue(7)!.comments[0]!.body, /no changes to review/);
    assert.equal(s.server.counters.prsCreated, 0);
  });
});
