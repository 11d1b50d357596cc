/**
 * "A worker killed during a boundary hook, then restarted": the hook runs in a child
 * process that is SIGKILLed at the moment the fake GitHub has applied an effect but not
 * yet answered (so the dead worker never learned it happened); the hook then runs again
 * in-process, as a restarted worker's retry would, and every effect exists exactly once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundaryDepsFromEnv, runBoundaryHook } from '../../../src/activities/deliver/run-boundary-hook.js';
import { githubScenario } from './github-fixture.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..', '..');
const CHILD = join(HERE, 'github-hook-child.ts');

const killPoints = [
  {
    name: 'after the PR creation request',
    pattern: /^POST \/repos\/acme\/widgets\/pulls$/,
    expect: { prsCreated: 1, commentsCreated: 0, issuesClosed: 0 },
    rerun: ['already-done', 'already-done', 'done', 'done', 'done'],
  },
  {
    name: 'after the comment request',
    pattern: /^POST \/repos\/acme\/widgets\/issues\/7\/comments$/,
    expect: { prsCreated: 1, commentsCreated: 1, issuesClosed: 0 },
    rerun: ['already-done', 'already-done', 'already-done', 'done', 'done'],
  },
  {
    name: 'after the close request',
    pattern: /^PATCH \/repos\/acme\/widgets\/issues\/7$/,
    expect: { prsCreated: 1, commentsCreated: 1, issuesClosed: 1 },
    rerun: ['already-done', 'already-done', 'already-done', 'already-done', 'already-done'],
  },
] as const;

for (const point of killPoints) {
  test(`worker killed ${point.name}, then restarted: exactly one PR, one comment and one close`, async () => {
    const s = await githubScenario();
    try {
      const seen = s.server.holdNext(point.pattern);
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
        cwd: ROOT,
        env: { ...s.env, BOUNDARY_INPUT: JSON.stringify(s.input) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<NodeJS.Signals | number | null>((done) =>
        child.on('exit', (code, signal) => done(signal ?? code)),
      );
      const outcome = await Promise.race([
        seen.then(() => 'seen' as const),
        exited.then(() => 'exited' as const),
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000).unref()),
      ]);
      assert.equal(outcome, 'seen', `the child should reach the held request; output:\n${output}`);
      child.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');
      assert.equal(output, '', 'the killed worker reported nothing');
      assert.deepEqual(
        {
          prsCreated: s.server.counters.prsCreated,
          commentsCreated: s.server.counters.commentsCreated,
          issuesClosed: s.server.counters.issuesClosed,
        },
        point.expect,
      );

      const report = await runBoundaryHook(boundaryDepsFromEnv(s.env), s.input);
      assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
      assert.deepEqual(
        report.effects.map((e) => e.status),
        point.rerun,
        JSON.stringify(report, null, 2),
      );
      assert.equal(s.server.counters.prsCreated, 1);
      assert.equal(s.server.counters.commentsCreated, 1);
      assert.equal(s.server.counters.issuesClosed, 1);
      assert.equal(s.server.pulls().length, 1);
      assert.equal(s.server.issue(7)!.comments.length, 1);
      assert.ok(report.prUrl?.endsWith(`/pull/${s.server.pulls()[0]!.number}`));
    } finally {
      await s.cleanup();
    }
  });
}
