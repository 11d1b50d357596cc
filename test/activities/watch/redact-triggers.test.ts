/**
 * What the watcher's poll returns goes into workflow history. A CI job's log that prints
 * the worker's own GitHub token (a build script echoing its environment) and a labelled
 * issue's title quoting the model key come back from the pollWatch activity
 * with the secrets replaced, polled through createWatchActivities against the GitHub
 * stand-in, so the wiring is what is tested, not only the function.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createGitHubWatchClient } from '../../../src/activities/github/octokit-watch-client.js';
import { redactorForEnv } from '../../../src/activities/edge/secret-redactor.js';
import { createWatchActivities } from '../../../src/activities/watch/watch-activities.js';
import { redactTrigger } from '../../../src/activities/watch/redact-triggers.js';
import type { WatchTrigger } from '../../../src/contracts/watch.js';
import { startFakeGitHubServer, type FakeGitHubServer } from '../../helpers/fake-github-server.js';

const TOKEN = ['ghp', 'redacttriggertoken0123456789'].join('_');
const MODEL_KEY = ['sk', 'ant', 'api03', 'redacttriggerkey0123456789'].join('-');
let server: FakeGitHubServer;

before(async () => {
  server = await startFakeGitHubServer({ token: TOKEN });
});
after(() => server.close());

test('a CI log and an issue title that carry the worker’s secrets come back redacted', async () => {
  const port = createGitHubWatchClient({ token: TOKEN, owner: server.owner, repo: server.repo, baseUrl: server.url });
  server.addIssue({ number: 3, title: `leaks ${MODEL_KEY}`, labels: ['agent'] });
  const res = await fetch(`${server.url}/repos/${server.owner}/${server.repo}/pulls`, {
    method: 'POST',
    headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 't', head: 'agent/issue-3', base: 'main' }),
  });
  const pull = ((await res.json()) as { number: number }).number;
  const sha = 'c'.repeat(40);
  server.setPullHead(pull, sha);
  server.checks.add(sha, { name: 'unit', conclusion: 'failure', log: `env: GITHUB_TOKEN=${TOKEN}\nnot ok 1 - adds` });
  const acts = createWatchActivities({
    github: async () => port,
    issueSource: () => assert.fail('unused'),
    local: () => assert.fail('unused'),
    redact: redactorForEnv({ GITHUB_TOKEN: TOKEN, ANTHROPIC_API_KEY: MODEL_KEY }),
  });
  const out = await acts.pollWatch({
    repoPath: '/unused',
    issueSource: 'github',
    label: 'agent',
    mention: '@issue-agent',
    cursor: { since: new Date(Date.now() - 60_000).toISOString(), seenCommentIds: [] },
    pulls: [{ pull, issue: 3, seen: [], ci: { rounds: 0, handled: [], reran: [`unit@${sha}`] } }],
  });
  const failed = out.triggers.find((t) => t.kind === 'check-failed');
  assert.ok(failed?.kind === 'check-failed', JSON.stringify(out.triggers));
  assert.match(failed.text, /not ok 1 - adds/, 'the excerpt is still there');
  const label = out.triggers.find((t) => t.kind === 'label');
  assert.ok(label?.kind === 'label');
  const all = JSON.stringify(out);
  assert.ok(!all.includes(TOKEN), 'no GitHub token in what the poll returns');
  assert.ok(!all.includes(MODEL_KEY), 'no model key in what the poll returns');
  assert.match(all, /\[REDACTED\]/);
});

test('every trigger with free text is redacted; ids and amounts are left alone', () => {
  const redact = (t: string): string => t.replaceAll('secret', 'X');
  const reply = { issue: 1, commentId: 2, author: 'a' };
  const cases: WatchTrigger[] = [
    { kind: 'label', issue: 1, title: 'secret' },
    { kind: 'mention', issue: 1, text: 'secret', reply, onPull: false },
    { kind: 'command', issue: 1, command: 'status', text: 'secret', reply } as WatchTrigger,
    { kind: 'comment', issue: 1, text: 'secret', reply },
    { kind: 'review', issue: 1, reviewId: 4, text: 'secret' },
    { kind: 'check-failed', issue: 1, pull: 2, checkRunId: 3, name: 'n', sha: 's', text: 'secret' },
  ];
  for (const c of cases) assert.ok(!JSON.stringify(redactTrigger(c, redact)).includes('secret'), c.kind);
  const extend: WatchTrigger = { kind: 'extend', issue: 1, usd: 5, reply };
  assert.deepEqual(redactTrigger(extend, redact), extend);
});
