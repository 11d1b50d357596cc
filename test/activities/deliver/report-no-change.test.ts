/**
 * The issue side of a run that changed nothing, on the local issue store: one comment with
 * the declared reason, the evidence and the harness's checks, the needs-human label (the
 * default, or `.agent/config.json` `labels.needsHuman`), the issue left open; a re-run
 * reports both effects already done and adds nothing.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { localIssueSourceFactory, writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { reportNoChange } from '../../../src/activities/deliver/report-no-change.js';
import type { ReportNoChangeInput } from '../../../src/contracts/no-change.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

const repos: TempGitRepo[] = [];
after(async () => Promise.all(repos.map((r) => r.cleanup())));

const deps = { issueSource: localIssueSourceFactory, redact: (t: string) => t.replaceAll('s3cr3t', '[REDACTED]') };

async function repoWithIssue(config?: object): Promise<{ repo: TempGitRepo; input: ReportNoChangeInput }> {
  const repo = await makeTempGitRepo();
  repos.push(repo);
  await repo.write({ '.git/info/exclude': '.agent/\n' });
  if (config !== undefined) await repo.write({ '.agent/config.json': JSON.stringify(config) });
  await writeLocalIssue(repo.dir, { number: 4, title: 'sum is wrong', body: 'sum(1, 2) is -1' });
  const input: ReportNoChangeInput = {
    workflowId: 'wf-4',
    issueSource: 'local',
    repoPath: repo.dir,
    issue: 4,
    branch: 'agent/issue-4',
    unchanged: {
      declaration: { reason: 'already-fixed', evidence: 'node --test: 3 passing on the base (token s3cr3t)' },
      baseCommit: 'c'.repeat(40),
    },
    evidence: [
      { validator: 'git-clean', passed: true, summary: 'clean', params: {}, unrecoverable: false },
      {
        validator: 'branch-changed',
        passed: true,
        summary: 'no change against cccc',
        params: {},
        unrecoverable: false,
      },
    ],
    summary: 'sum already adds its operands on main.',
  };
  return { repo, input };
}

const issueText = (repo: TempGitRepo): Promise<string> => readFile(join(repo.dir, '.agent/issues/4.md'), 'utf8');

test('comments the reason and evidence, labels agent:needs-human, closes nothing; a re-run adds nothing', async () => {
  const { repo, input } = await repoWithIssue();
  const report = await reportNoChange(deps, input);
  assert.equal(report.status, 'success');
  assert.equal(report.delivery, undefined, 'no delivery');
  assert.deepEqual(
    report.effects.map((e) => `${e.name}:${e.status}`),
    ['comment:done', 'label:done', 'close-issue:skipped'],
  );
  const text = await issueText(repo);
  assert.match(text, /state: open/);
  assert.match(text, /agent:needs-human/);
  assert.match(text, /No change made: already-fixed/);
  assert.match(text, /3 passing on the base \(token \[REDACTED\]\)/, 'the evidence, with secrets redacted');
  assert.match(text, /`cccccccccccc`/);
  assert.match(text, /passed `branch-changed`: no change against cccc/);
  assert.match(text, /sum already adds its operands on main\./);

  const again = await reportNoChange(deps, input);
  assert.deepEqual(
    again.effects.map((e) => `${e.name}:${e.status}`),
    ['comment:already-done', 'label:already-done', 'close-issue:skipped'],
  );
  assert.equal((await issueText(repo)).split('No change made').length, 2, 'one comment');
});

test('.agent/config.json labels.needsHuman names the label', async () => {
  const { repo, input } = await repoWithIssue({ labels: { needsHuman: 'triage' } });
  const report = await reportNoChange(deps, input);
  assert.match(report.effects.find((e) => e.name === 'label')?.detail ?? '', /added triage/);
  const text = await issueText(repo);
  assert.match(text, /labels:.*triage/s);
  assert.doesNotMatch(text, /agent:needs-human/);
});
