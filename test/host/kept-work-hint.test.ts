/**
 * A failed or cancelled run says what picks its kept branch and worktree up, and how to
 * discard them (commands that work when pasted, quotes and spaces included). What picks a
 * failed run up depends on its code: a plain retry, a fix outside the run first, or a
 * retry with guidance for the model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_FAILURE_TYPES, FailureType } from '../../src/contracts/failures.js';
import type { RunResult } from '../../src/contracts/run.js';
import { keptWorkHint } from '../../src/host/kept-work-hint.js';

test("a failed run's hint names what resumes it, and its discard commands remove exactly its worktree and branch", async () => {
  const root = await mkdtemp(join(tmpdir(), "kept it's-"));
  try {
    const repo = join(root, 'my repo');
    const worktree = join(root, 'wt', 'issue-3');
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'base');
    git('worktree', 'add', '-q', '-b', 'agent/issue-3', worktree);
    const result = {
      outcome: 'failed',
      code: 'MODEL_UNAVAILABLE',
      branch: 'agent/issue-3',
      worktreePath: worktree,
    } as unknown as RunResult;
    const hint = keptWorkHint(result, { issue: 3, repoPath: repo, repoFlag: repo }) ?? '';
    assert.match(hint, /^kept: branch agent\/issue-3 and its worktree; `issue-agent retry --issue 3 --repo '/);
    const discard = hint.split('to discard both: ')[1] ?? '';
    execFileSync('bash', ['-c', discard]);
    assert.equal(existsSync(worktree), false);
    assert.doesNotMatch(git('branch', '--list'), /agent\/issue-3/);
    assert.match(git('branch', '--list'), /main/);

    const cancelled = keptWorkHint(
      { ...result, outcome: 'cancelled' },
      { issue: 3, repoPath: repo, repoFlag: undefined },
    );
    assert.match(cancelled ?? '', /`issue-agent start-run --issue 3` starts a new run on them/);
    assert.equal(
      keptWorkHint({ ...result, outcome: 'success' }, { issue: 3, repoPath: repo, repoFlag: undefined }),
      undefined,
    );
    // A no-change run keeps its (unchanged) branch and worktree too: the user is told so, and how to discard them.
    const unchanged = keptWorkHint(
      { ...result, outcome: 'no-change' },
      { issue: 3, repoPath: repo, repoFlag: undefined },
    );
    assert.match(
      unchanged ?? '',
      /^kept: branch agent\/issue-3 and its worktree; the branch has no change against its base; to discard both: git -C /,
    );
    // A run that ended before making a worktree says what starts it again.
    const { branch: _b, worktreePath: _w, ...bare } = result;
    assert.match(
      keptWorkHint({ ...bare, code: 'WORKTREE_FAILED' } as RunResult, {
        issue: 3,
        repoPath: repo,
        repoFlag: undefined,
      }) ?? '',
      /^next: fix what the reason names, then `issue-agent start-run --issue 3` starts the run again \(it ended before making a worktree: nothing was kept\)$/,
    );
    assert.match(
      keptWorkHint(bare as RunResult, { issue: 3, repoPath: repo, repoFlag: undefined }) ?? '',
      /^next: `issue-agent start-run --issue 3` starts the run again/,
    );
    assert.equal(
      keptWorkHint({ ...bare, outcome: 'cancelled' } as RunResult, { issue: 3, repoPath: repo, repoFlag: undefined }),
      undefined,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

const failed = (code: FailureType | undefined): RunResult =>
  ({
    outcome: 'failed',
    ...(code === undefined ? {} : { code }),
    branch: 'agent/issue-3',
    worktreePath: '/wt/issue-3',
  }) as unknown as RunResult;
const hintFor = (code: FailureType | undefined): string =>
  keptWorkHint(failed(code), { issue: 3, repoPath: '/repo', repoFlag: undefined }) ?? '';

test('a worktree or key problem says to fix it before retrying; a plain retry would fail the same way', () => {
  for (const code of [FailureType.WorktreeFailed, FailureType.ModelAuth]) {
    assert.match(hintFor(code), /fix what the reason names first .*then `issue-agent retry --issue 3` resumes/, code);
  }
});

test('a broken environment says to start a new run after the fix: a retry keeps the environment this run prepared', () => {
  assert.match(
    hintFor(FailureType.EnvironmentFailed),
    /fix what the reason names first, then discard both \(below\) and `issue-agent start-run --issue 3` prepares the environment anew/,
  );
});

test('a check that cannot pass by retrying suggests a retry with guidance for the model', () => {
  for (const code of [FailureType.ValidatorUnrecoverable, FailureType.ValidationAborted, FailureType.MaxIterations]) {
    assert.match(
      hintFor(code),
      /`issue-agent retry --issue 3 --prompt "<what to change>"` resumes .* with your guidance/,
      code,
    );
  }
});

test('an outage, a budget or an unknown code suggests the plain retry; every failure code has a hint', () => {
  for (const code of [FailureType.ModelUnavailable, FailureType.BudgetExhausted, undefined]) {
    assert.match(hintFor(code), /; `issue-agent retry --issue 3` resumes after the last completed step;/, String(code));
  }
  for (const code of ALL_FAILURE_TYPES) assert.match(hintFor(code), /issue-agent (retry|start-run) --issue 3/, code);
});
