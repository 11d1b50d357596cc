/**
 * The checkpoint around a step activity: record after the step, and before the next one
 * restore the worktree only when the run was reset (another run expects an earlier
 * checkpoint, or left a step half done); never on a retry of the same activity.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import {
  alignWorktree,
  needsRestore,
  withWorktreeCheckpoint,
  type CheckpointLog,
} from '../../../../src/activities/workspace/checkpoints/worktree-checkpoints.js';
import { markerPath, readMarker } from '../../../../src/activities/workspace/checkpoints/checkpoint-files.js';
import {
  checkpointNamespace,
  checkpointRequest,
  checkpointRef,
  refComponent,
} from '../../../../src/contracts/worktree-checkpoint.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';

const WF = 'repo-1/issue-agent/issue-3';
let repo: TempGitRepo;
let tree: string;
const logged: string[] = [];
const log: CheckpointLog = (_level, message) => logged.push(message);

beforeEach(async () => {
  repo = await makeTempGitRepo();
  tree = join(repo.dir, '.git', 'agent', 'worktrees', 'issue-3');
  await repo.git('worktree', 'add', '-q', '-b', 'agent/issue-3', tree, 'main');
  logged.length = 0;
});
afterEach(() => repo.cleanup());

/** One step activity: writes `file` (if any); `changedNothing` is what it says of itself. */
function runStep(k: number, expected: string | undefined, runId: string, file?: string, changedNothing = false) {
  return withWorktreeCheckpoint({
    worktreePath: tree,
    request: checkpointRequest(WF, 3, k, expected),
    scope: { runId, activityId: String(k) },
    label: `step ${k}`,
    log,
    work: async () => {
      if (file !== undefined) await writeFile(join(tree, file), `${file}\n`);
      return { ok: true };
    },
    changedNothing: () => changedNothing,
  });
}

/** A step that writes `file` and records its checkpoint. */
async function step(k: number, expected: string | undefined, runId: string, file: string): Promise<string> {
  const out = await runStep(k, expected, runId, file);
  assert.ok(out.worktreeCheckpoint, 'the step result carries its checkpoint');
  return out.worktreeCheckpoint;
}

/** A step that ran no tool: it says it changed nothing. */
const quietStep = (k: number, expected: string | undefined, runId: string) =>
  runStep(k, expected, runId, undefined, true);

test('names: refs/agent/<agent>/issue-<n>/step-<k> from the Workflow ID, safe in a ref', () => {
  assert.equal(checkpointRef(WF, 3, 2), 'refs/agent/issue-agent/issue-3/step-2');
  assert.equal(checkpointNamespace('test-issue-1-abc', 1), 'refs/agent/test-issue-1-abc/issue-1');
  assert.equal(refComponent('../we ird..name.lock'), 'we-ird.name-lock');
  assert.deepEqual(checkpointRequest(WF, 3, 1, undefined), { ref: 'refs/agent/issue-agent/issue-3/step-1' });
});

test('needsRestore: only a worktree another run left elsewhere (or mid-step) is restored', () => {
  const scope = { runId: 'run-b', activityId: '9' };
  const marker = (checkpoint: string | undefined, dirty: boolean, runId: string, activity = '1') => ({
    ...(checkpoint === undefined ? {} : { checkpoint }),
    dirty,
    runId,
    scope: `${runId}/${activity}`,
  });
  assert.equal(needsRestore(undefined, 'c1', scope), false, 'nothing known');
  assert.equal(needsRestore(marker('c2', false, 'run-a'), undefined, scope), false, 'first step');
  assert.equal(needsRestore(marker('c2', false, 'run-a'), 'c1', scope), true, 'reset to an earlier step');
  assert.equal(needsRestore(marker('c1', false, 'run-a'), 'c1', scope), false, 'already there');
  assert.equal(needsRestore(marker('c1', true, 'run-a'), 'c1', scope), true, 'reset while a step was running');
  assert.equal(needsRestore(marker('c1', true, 'run-b'), 'c1', scope), false, 'a failed step of this run: kept');
  assert.equal(needsRestore(marker('c2', true, 'run-b', '9'), 'c1', scope), false, 'a retry of this activity');
});

test('a reset run gets the files of its last completed step back; a normal run is never restored', async () => {
  const c1 = await step(1, undefined, 'run-a', 'one.txt');
  const c2 = await step(2, c1, 'run-a', 'two.txt');
  await step(3, c2, 'run-a', 'three.txt');
  assert.deepEqual(logged, [], 'no restore in a run going forward');
  const marker = await readMarker(await markerPath(tree, checkpointNamespace(WF, 3)));
  assert.equal(marker?.dirty, false);

  // The run is reset to step 2: a new run ID, step 3 runs again expecting checkpoint 2.
  await withWorktreeCheckpoint({
    worktreePath: tree,
    request: checkpointRequest(WF, 3, 3, c2),
    scope: { runId: 'run-b', activityId: '3' },
    label: 'step 3 again',
    log,
    work: async () => {
      assert.equal(existsSync(join(tree, 'three.txt')), false, 'step 3 file removed before step 3 runs again');
      assert.equal(await readFile(join(tree, 'two.txt'), 'utf8'), 'two.txt\n');
      return {};
    },
  });
  assert.equal(logged.length, 1);
  assert.match(logged[0] ?? '', /restored/);
});

test('a retry of the same activity keeps what its first attempt did', async () => {
  const c1 = await step(1, undefined, 'run-a', 'one.txt');
  // Both attempts of one activity: the same request and scope.
  const activity = {
    worktreePath: tree,
    request: checkpointRequest(WF, 3, 2, c1),
    scope: { runId: 'run-a', activityId: '2' },
    label: 'step 2',
    log,
  };
  // First attempt: writes, records, and the worker dies before reporting.
  await withWorktreeCheckpoint({
    ...activity,
    work: async () => {
      await writeFile(join(tree, 'two.txt'), 'two\n');
      return {};
    },
  });
  // Second attempt of the same activity: nothing is restored.
  await withWorktreeCheckpoint({
    ...activity,
    work: async () => {
      assert.equal(existsSync(join(tree, 'two.txt')), true);
      return {};
    },
  });
  assert.deepEqual(logged, []);
});

test('validators after a reset see the expected files, and the next step is not restored again', async () => {
  const c1 = await step(1, undefined, 'run-a', 'one.txt');
  await step(2, c1, 'run-a', 'two.txt');
  // Reset to step 1, which was a closing step: the validators run first.
  const request = checkpointRequest(WF, 3, 1, c1);
  const validators = await alignWorktree(tree, request, { runId: 'run-b', activityId: '4' }, log, { inStep: false });
  assert.equal(validators.restored, true);
  assert.equal(existsSync(join(tree, 'two.txt')), false);
  const marker = await readMarker(await markerPath(tree, checkpointNamespace(WF, 3)));
  assert.deepEqual({ checkpoint: marker?.checkpoint, dirty: marker?.dirty }, { checkpoint: c1, dirty: false });
  // Validators of a run going forward leave the marker alone.
  const again = await alignWorktree(tree, request, { runId: 'run-b', activityId: '5' }, log, { inStep: false });
  assert.equal(again.restored, false);
  logged.length = 0;
  await step(2, c1, 'run-b', 'two-again.txt');
  assert.deepEqual(logged, [], 'the next step finds the worktree where it expects it');
});

const refExists = async (k: number): Promise<boolean> =>
  repo.git('rev-parse', '--verify', '--quiet', checkpointRef(WF, 3, k)).then(
    () => true,
    () => false,
  );

test('a step that changed nothing takes the last checkpoint as its own, without a git process', async () => {
  const c1 = await step(1, undefined, 'run-a', 'one.txt');
  const quiet = await quietStep(2, c1, 'run-a');
  assert.equal(quiet.worktreeCheckpoint, c1, 'the checkpoint of step 1 is that of step 2');
  assert.equal(await refExists(2), false, 'no ref was written for step 2');
  const marker = await readMarker(await markerPath(tree, checkpointNamespace(WF, 3)));
  assert.equal(marker?.checkpoint, c1);
  assert.equal(marker?.dirty, false, 'the worktree is marked clean at that checkpoint again');
  // The next step starts from there without a restore.
  const c3 = await step(3, quiet.worktreeCheckpoint, 'run-a', 'three.txt');
  assert.notEqual(c3, c1);
  assert.deepEqual(logged, [], 'nothing was restored');
});

test('the first step, or a worktree not known clean at the expected checkpoint, is always recorded', async () => {
  const first = await quietStep(1, undefined, 'run-a');
  assert.ok(first.worktreeCheckpoint, 'step 1 has no earlier checkpoint to reuse');
  assert.equal(await refExists(1), true);
  // A step of this run failed half way (marker dirty, its files changed): the next quiet
  // step must record what is really in the worktree, not reuse the stale checkpoint.
  await alignWorktree(
    tree,
    checkpointRequest(WF, 3, 2, first.worktreeCheckpoint),
    {
      runId: 'run-a',
      activityId: '2',
    },
    log,
  );
  await writeFile(join(tree, 'half-done.txt'), 'x\n');
  const next = await quietStep(3, first.worktreeCheckpoint, 'run-a');
  assert.notEqual(next.worktreeCheckpoint, first.worktreeCheckpoint, 'a new checkpoint was recorded');
  assert.equal(await refExists(3), true);
  const files = await repo.git('ls-tree', '--name-only', next.worktreeCheckpoint!);
  assert.match(files, /half-done\.txt/);
});
