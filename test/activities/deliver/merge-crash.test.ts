/**
 * "The worker dies inside the boundary merge": the hook runs in a child process whose
 * git is a wrapper that stops at one git step (before it runs, or after it ran but
 * before the worker hears back); the test then SIGKILLs the whole process group, like
 * a machine going down. The base branch must be untouched or fully merged, never in
 * between (no MERGE_HEAD, nothing staged, the checkout on its branch and clean), and
 * the retried hook completes the delivery.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeliveryMode } from '../../../src/contracts/delivery.js';
import { runLocalBoundaryHook } from '../../../src/activities/deliver/local-boundary-hook.js';
import { createLocalIssueStore } from '../../../src/activities/issues/local-issue-store.js';
import { pausingGit } from '../../helpers/pausing-git.js';
import { waitFor } from '../../helpers/worker-process.js';
import { assertCheckoutIntact, deps, exists, localFixture } from './local-delivery-fixture.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..', '..');
const CHILD = join(HERE, 'github-hook-child.ts');

const points: ReadonlyArray<{
  name: string;
  delivery: DeliveryMode;
  match: string;
  when: 'before' | 'after';
  checkout: 'main' | 'other';
  expect: 'untouched' | 'merged';
}> = [
  {
    name: 'merge: computed, before the ref moves',
    delivery: 'merge',
    match: 'commit-tree',
    when: 'after',
    checkout: 'main',
    expect: 'untouched',
  },
  {
    name: 'merge: at the fast-forward of the checkout',
    delivery: 'merge',
    match: '--ff-only',
    when: 'before',
    checkout: 'main',
    expect: 'untouched',
  },
  {
    name: 'merge: after the fast-forward, before the worker hears back',
    delivery: 'merge',
    match: '--ff-only',
    when: 'after',
    checkout: 'main',
    expect: 'merged',
  },
  {
    name: 'merge: at the atomic update-ref (base not checked out)',
    delivery: 'merge',
    match: 'update-ref',
    when: 'before',
    checkout: 'other',
    expect: 'untouched',
  },
  {
    name: 'squash: after the fast-forward',
    delivery: 'squash',
    match: '--ff-only',
    when: 'after',
    checkout: 'main',
    expect: 'merged',
  },
];

for (const point of points) {
  test(`worker killed inside the delivery (${point.name}): base ${point.expect}, never in between; the retry delivers`, async () => {
    const { repo, input, mainBefore } = await localFixture({ delivery: point.delivery });
    const fake = await pausingGit(point.match, point.when);
    const checkoutBranch = point.checkout === 'main' ? 'main' : 'feature/mine';
    try {
      if (point.checkout === 'other') await repo.git('checkout', '-qb', checkoutBranch);
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
        cwd: ROOT,
        env: {
          ...process.env,
          PATH: `${fake.dir}:${process.env['PATH'] ?? ''}`,
          BOUNDARY_INPUT: JSON.stringify(input),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<void>((done) => child.on('exit', () => done()));
      let gone = false;
      void exited.then(() => (gone = true));
      let reached = false;
      await waitFor(
        () => {
          if (gone) return true;
          void exists(fake.reached).then((r) => (reached ||= r));
          return reached;
        },
        30_000,
        `the child to reach git ${point.match}`,
      );
      assert.equal(gone, false, `the child ended before reaching git ${point.match}:\n${output}`);
      process.kill(-child.pid!, 'SIGKILL'); // the worker and its git, like a machine going down
      await exited;

      const main = await repo.git('rev-parse', 'main');
      const branchHead = await repo.git('rev-parse', input.branch);
      if (point.expect === 'untouched') assert.equal(main, mainBefore, 'base untouched');
      else {
        assert.equal(
          await repo.git('rev-parse', 'main^1'),
          mainBefore,
          'base fully moved: first parent is the old base',
        );
        if (point.delivery === 'merge') assert.equal(await repo.git('rev-parse', 'main^2'), branchHead);
      }
      await assertCheckoutIntact(repo, checkoutBranch);
      assert.equal((await createLocalIssueStore(repo.dir).read(5)).state, 'open', 'the issue waits for delivery');

      // The restarted worker's retry: the delivery completes (or is found done), once.
      const report = await runLocalBoundaryHook(deps, input);
      assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
      assert.equal(report.effects[0]?.status, point.expect === 'merged' ? 'already-done' : 'done');
      assert.equal(await repo.git('rev-parse', 'main^1'), mainBefore, 'delivered exactly once on the old base');
      await assertCheckoutIntact(repo, checkoutBranch);
      if (point.checkout === 'main') assert.equal(await exists(join(repo.dir, 'hello.txt')), true);
      assert.equal((await createLocalIssueStore(repo.dir).read(5)).state, 'closed');
    } finally {
      await rm(fake.dir, { recursive: true, force: true });
      await repo.cleanup();
    }
  });
}
