/**
 * start-run's decision between attaching to the live run and starting it: the base-drift
 * note ("the issue branch was re-cut because its base moved") is said only by an
 * invocation that starts (or restarts) the run, once, after the start went through; one
 * that attaches to a live run re-cut nothing and says nothing about the branch, nor does
 * one whose start found the run another invocation had just started.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrAttach, type StartOrAttachPorts } from '../../src/cli/start-or-attach.js';

const NOTE = 'note: agent/issue-5 has no work of its own; it moves from aaaaaaaaaaaa to main at bbbbbbbbbbbb';
const RUN = { workflowId: 'repo/agent/issue-5', url: 'http://ui/wf' };

interface Fake {
  readonly said: string[];
  readonly calls: string[];
  readonly ports: StartOrAttachPorts<{ status: { name: string } }>;
}

/** Ports over a server whose run for the issue has `status` (undefined: no run yet). */
function fake(status: string | undefined, options: { refuseStart?: boolean; raced?: boolean } = {}): Fake {
  const said: string[] = [];
  const calls: string[] = [];
  const ports: Fake['ports'] = {
    describe: async () => (status === undefined ? undefined : { status: { name: status } }),
    mayStart: async () => {
      calls.push('mayStart');
      if (options.refuseStart) throw new Error('no model credentials');
    },
    startNotes: async () => (calls.push('startNotes'), [NOTE]),
    start: async () => (calls.push('start'), options.raced !== true),
    releaseOrphans: async () => (calls.push('releaseOrphans'), ['the worker that ran queryStep is gone']),
    say: (line) => void said.push(line),
  };
  return { said, calls, ports };
}

test('attaching to the live run says nothing about the branch and starts nothing', async () => {
  const { said, calls, ports } = fake('RUNNING');
  const { attaching } = await startOrAttach(ports, RUN);
  assert.equal(attaching, true);
  assert.deepEqual(said, [
    'attached to the live run repo/agent/issue-5\nWeb UI: http://ui/wf',
    'the worker that ran queryStep is gone',
  ]);
  assert.deepEqual(calls, ['releaseOrphans'], 'the branch is not even looked at');
});

for (const status of [undefined, 'COMPLETED', 'FAILED', 'TERMINATED']) {
  test(`starting the run (existing run: ${status ?? 'none'}) says the note once, after the start`, async () => {
    const { said, calls, ports } = fake(status);
    const { attaching } = await startOrAttach(ports, RUN);
    assert.equal(attaching, false);
    assert.deepEqual(said, ['started run repo/agent/issue-5\nWeb UI: http://ui/wf', NOTE]);
    // Read before the start: a worker re-cuts the branch as soon as it takes the run.
    assert.deepEqual(calls, ['mayStart', 'startNotes', 'start']);
  });
}

test('a start refused before it happened says no note', async () => {
  const { said, calls, ports } = fake(undefined, { refuseStart: true });
  await assert.rejects(startOrAttach(ports, RUN), /no model credentials/);
  assert.deepEqual(said, []);
  assert.deepEqual(calls, ['mayStart']);
});

test('attaching with flags only a start applies says they were not applied, and how to use them', async () => {
  const startOnly = { given: ['--deliver', '--budget-usd'], cancel: 'issue-agent cancel --issue 5' };
  const live = fake('RUNNING');
  await startOrAttach(live.ports, { ...RUN, startOnly });
  const note = live.said.find((line) => line.includes('not applied'));
  assert.ok(note, live.said.join('\n'));
  assert.match(note, /--deliver, --budget-usd not applied: the live run keeps the settings it started with/);
  assert.match(note, /issue-agent cancel --issue 5/);

  const fresh = fake(undefined);
  await startOrAttach(fresh.ports, { ...RUN, startOnly });
  assert.ok(!fresh.said.some((line) => line.includes('not applied')), 'a start applies them');
  const bare = fake('RUNNING');
  await startOrAttach(bare.ports, { ...RUN, startOnly: { ...startOnly, given: [] } });
  assert.ok(!bare.said.some((line) => line.includes('not applied')), 'nothing given, nothing said');
});

test('a start that found the run another invocation had just started says it attached, without the note', async () => {
  const startOnly = { given: ['--deliver'], cancel: 'issue-agent cancel --issue 5' };
  const { said, calls, ports } = fake(undefined, { raced: true });
  const { attaching } = await startOrAttach(ports, { ...RUN, startOnly });
  assert.equal(attaching, true);
  assert.equal(said[0], 'attached to the live run repo/agent/issue-5\nWeb UI: http://ui/wf');
  assert.match(said[1] ?? '', /--deliver not applied/);
  assert.equal(said.length, 2, said.join('\n'));
  assert.deepEqual(calls, ['mayStart', 'startNotes', 'start']);
});
