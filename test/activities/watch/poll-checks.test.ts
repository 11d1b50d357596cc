/**
 * A delivered pull request's checks, polled against the GitHub REST stand-in through the
 * real Octokit client: a failed check is run again first; a flaky one passes then and
 * nothing is worked; one failing again becomes a continuation's guidance with a bounded
 * excerpt of its log; without permission to re-run, the failure is worked at once; a
 * check already handled is not read twice; a closed pull request stops being read.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pollChecks } from '../../../src/activities/watch/poll-checks.js';
import { createGitHubWatchClient } from '../../../src/activities/github/octokit-watch-client.js';
import type { CiWatch, WatchTrigger } from '../../../src/contracts/watch.js';
import { COMMENT_TEMPLATES_DIR } from '../../../src/activities/watch/comment-templates.js';
import { startFakeGitHubServer, type FakeGitHubServer } from '../../helpers/fake-github-server.js';
import { join } from 'node:path';

const TOKEN = ['ghp', 'pollcheckstoken0123456789'].join('_');
const HARNESS = join(COMMENT_TEMPLATES_DIR, '..', 'harness');
let server: FakeGitHubServer;

before(async () => {
  server = await startFakeGitHubServer({ token: TOKEN });
});
after(() => server.close());

async function openPull(sha: string): Promise<number> {
  const port = createGitHubWatchClient({ token: TOKEN, owner: server.owner, repo: server.repo, baseUrl: server.url });
  const res = await fetch(`${server.url}/repos/${server.owner}/${server.repo}/pulls`, {
    method: 'POST',
    headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 't', head: `agent/${sha.slice(0, 4)}`, base: 'main' }),
  });
  const pull = ((await res.json()) as { number: number }).number;
  server.setPullHead(pull, sha);
  void port;
  return pull;
}

const poll = (pull: number, ci: CiWatch): Promise<readonly WatchTrigger[]> =>
  pollChecks(
    createGitHubWatchClient({ token: TOKEN, owner: server.owner, repo: server.repo, baseUrl: server.url }),
    { pull, issue: 7, ci },
    HARNESS,
  );

test('re-run first: a flaky check passes and is never worked; a real failure comes back with its log', async () => {
  const sha = 'a'.repeat(40);
  const pull = await openPull(sha);
  const flaky = server.checks.add(sha, { name: 'lint', conclusion: 'failure', onRerun: 'success' });
  const red = server.checks.add(sha, { name: 'unit', conclusion: 'failure', log: 'ok 1\nnot ok 2 - adds\n# fail 1' });
  server.checks.add(sha, { name: 'docs', conclusion: 'success' });
  server.checks.add(sha, { name: 'deploy', conclusion: 'cancelled' });

  const first = await poll(pull, { rounds: 0, handled: [], reran: [] });
  assert.deepEqual(
    first.map((t) => t.kind === 'check-rerun' && [t.checkRunId, t.key]),
    [
      [flaky.id, `lint@${sha}`],
      [red.id, `unit@${sha}`],
    ],
  );
  const ci: CiWatch = { rounds: 0, handled: [flaky.id, red.id], reran: [`lint@${sha}`, `unit@${sha}`] };
  const second = await poll(pull, ci);
  assert.equal(second.length, 1, JSON.stringify(second));
  const failed = second[0]!;
  assert.ok(failed.kind === 'check-failed');
  assert.equal(failed.name, 'unit');
  assert.equal(failed.pull, pull);
  assert.match(failed.text, /failed a CI check after delivery: \*\*unit\*\*/);
  assert.match(failed.text, /and again when it was run a second time/);
  assert.match(failed.text, /not ok 2 - adds/);
  assert.deepEqual(await poll(pull, { ...ci, handled: [...ci.handled, failed.checkRunId] }), [], 'handled once');
});

test('no permission to re-run: the failure is worked at once; a closed pull request is no longer read', async () => {
  const sha = 'b'.repeat(40);
  const pull = await openPull(sha);
  server.checks.allowRerun = false;
  try {
    server.checks.add(sha, { name: 'unit', conclusion: 'timed_out', log: '' });
    const triggers = await poll(pull, { rounds: 0, handled: [], reran: [] });
    assert.deepEqual(
      triggers.map((t) => t.kind),
      ['check-failed'],
    );
    const t = triggers[0]!;
    assert.ok(t.kind === 'check-failed' && !t.text.includes('second time'));
  } finally {
    server.checks.allowRerun = true;
  }
  server.setPullHead(pull, sha, 'closed');
  assert.deepEqual(await poll(pull, { rounds: 0, handled: [], reran: [] }), [{ kind: 'pull-closed', issue: 7 }]);
});
