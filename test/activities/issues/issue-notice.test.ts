/**
 * The notice a waiting run posts on its issue: its template filled, posted once by key
 * (a retried activity adds nothing), the waiting label put on and taken off, and secrets
 * redacted before the text leaves the process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postIssueNotice } from '../../../src/activities/issues/issue-notice.js';
import {
  createLocalIssueStore,
  localIssuePath,
  localIssueSourceFactory,
  writeLocalIssue,
} from '../../../src/activities/issues/local-issue-store.js';

const deps = { issueSource: localIssueSourceFactory, redact: (t: string) => t.replaceAll('sk-SECRET', '[redacted]') };

test('a budget notice is posted once, with its values filled and secrets redacted', async () => {
  const repoPath = await mkdtemp(join(tmpdir(), 'notice-'));
  try {
    await writeLocalIssue(repoPath, { number: 4, title: 'T', body: 'B' });
    const input = {
      repoPath,
      issueSource: 'local' as const,
      issue: 4,
      comment: {
        key: 'wf:budget-paused:3:2900',
        template: 'budget-paused' as const,
        values: { workflowId: 'wf', reason: 'cost sk-SECRET', command: 'issue-agent extend --issue 4 --usd 5' },
      },
    };
    assert.deepEqual(await postIssueNotice(deps, input), { commented: true });
    assert.deepEqual(await postIssueNotice(deps, input), { commented: false }, 'a retry adds nothing');
    const text = await readFile(localIssuePath(repoPath, 4), 'utf8');
    assert.equal(text.split('Paused: the budget of this run is spent').length - 1, 1);
    assert.match(text, /`issue-agent extend --issue 4 --usd 5`/);
    assert.match(text, /Run `wf` stopped/);
    assert.doesNotMatch(text, /sk-SECRET/);
  } finally {
    await rm(repoPath, { recursive: true, force: true });
  }
});

test('labels only: the waiting label goes on, then comes off', async () => {
  const repoPath = await mkdtemp(join(tmpdir(), 'notice-'));
  try {
    await writeLocalIssue(repoPath, { number: 2, title: 'T', body: 'B', labels: ['bug'] });
    const base = { repoPath, issueSource: 'local' as const, issue: 2 };
    assert.deepEqual(await postIssueNotice(deps, { ...base, labels: { add: ['agent:waiting'] } }), {
      commented: false,
    });
    assert.deepEqual((await createLocalIssueStore(repoPath).read(2)).labels, ['bug', 'agent:waiting']);
    await postIssueNotice(deps, { ...base, labels: { remove: ['agent:waiting'] } });
    assert.deepEqual((await createLocalIssueStore(repoPath).read(2)).labels, ['bug']);
  } finally {
    await rm(repoPath, { recursive: true, force: true });
  }
});
