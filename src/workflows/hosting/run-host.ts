/**
 * Where a run's worktree-bound activities go, and what happens when that host is gone.
 *
 * A run on a local checkout is pinned to the host that holds the checkout: its
 * activities go to that host's queue and wait for it, as they always did. A run on a
 * remote repository (its repoPath a git URL) is not: its step checkpoints are on the
 * remote, so when its host stops taking work (nobody starts an activity on the host
 * queue within the schedule-to-start timeout: the machine is gone, not just slow) the
 * run moves. `prepareWorkspace` runs again on the shared queue with the checkpoint of
 * the last completed step (the worker that takes it becomes the host, fetches the
 * checkpoint and puts it in a new worktree), the environment is prepared there, and the
 * activity that found no host runs again on the new one. The StepContext, the loop
 * state and the steps' records are workflow state: nothing of them moves.
 */
import { ActivityFailure, log, TimeoutFailure } from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { AgentDefinition } from '../../contracts/definition.js';
import { isRepoUrl } from '../../contracts/repo-url.js';
import type { RunInput } from '../../contracts/run.js';
import type { PrepareWorkspaceOutput } from '../../contracts/workspace.js';
import { environmentActivities, workspaceActivities } from '../run/activity-proxies.js';
import type { RunSession } from '../run/state/run-session.js';

/** How long a host queue may leave an activity unstarted before the host counts as gone. */
const HOST_LOST_AFTER = '3 minutes';

/** More moves than this in one run is a fleet that keeps dying: the run fails with the last error. */
const MAX_MOVES = 10;

export interface HostOptions {
  readonly taskQueue?: string;
  readonly scheduleToStartTimeout?: string | number;
}

/** What a host-bound call needs of the run (RunContext has it; the environment phase builds it). */
export interface HostedRun {
  readonly input: RunInput;
  readonly definition: AgentDefinition;
}

/** True for a run whose worktree may move to another host: a remote repository's. */
export function movableRun(input: RunInput): boolean {
  return isRepoUrl(input.repoPath);
}

export function hostOptions(input: RunInput, workspace: PrepareWorkspaceOutput | undefined): HostOptions {
  const queue = workspace?.hostTaskQueue;
  if (queue === undefined) return {};
  if (!movableRun(input)) return { taskQueue: queue };
  return { taskQueue: queue, scheduleToStartTimeout: input.tuning?.hostLostAfterMs ?? HOST_LOST_AFTER };
}

/** The activity was never started on the host queue in time: its host is gone. */
export function hostLost(err: unknown): boolean {
  return (
    err instanceof ActivityFailure &&
    err.cause instanceof TimeoutFailure &&
    err.cause.timeoutType === TimeoutType.SCHEDULE_TO_START
  );
}

/**
 * Runs a worktree-bound activity call on the run's host; for a movable run whose host
 * is gone, moves the run (`moveRun`) and calls again with the new host and workspace.
 */
export async function onRunHost<T>(
  run: HostedRun,
  session: RunSession,
  call: (host: HostOptions, workspace: PrepareWorkspaceOutput) => Promise<T>,
): Promise<T> {
  for (let moves = 0; ; moves++) {
    const workspace = session.workspace;
    if (workspace === undefined) throw new Error('a host-bound activity was called before the workspace was prepared');
    try {
      return await call(hostOptions(run.input, workspace), workspace);
    } catch (err) {
      if (!hostLost(err) || !movableRun(run.input) || moves >= MAX_MOVES) throw err;
      // A new host lost while being set up: the next call finds no host either and moves again.
      await moveRun(run, session, workspace).catch((moveErr: unknown) => {
        if (!hostLost(moveErr)) throw moveErr;
      });
    }
  }
}

/** Prepares the run's worktree on whichever worker takes it, at the last completed step's checkpoint. */
async function moveRun(run: HostedRun, session: RunSession, lost: PrepareWorkspaceOutput): Promise<void> {
  const checkpoint = session.state.worktreeCheckpoint;
  log.warn('the run host is gone: moving the run to another worker', { host: lost.hostTaskQueue, checkpoint });
  const workspace = await workspaceActivities.prepareWorkspace({
    repoPath: run.input.repoPath,
    issue: run.input.issue,
    issueSource: run.input.issueSource,
    worktreeRoot: run.definition.worktree.root,
    branchPrefix: run.definition.worktree.branchPrefix,
    ...(checkpoint === undefined ? {} : { resumeAt: checkpoint }),
  });
  session.attachWorkspace(workspace);
  session.warn(
    `host ${lost.hostTaskQueue ?? '?'} stopped taking work; the run moved to ${workspace.hostTaskQueue ?? '?'} at ${checkpoint === undefined ? 'the base' : `checkpoint ${checkpoint.slice(0, 12)}`}`,
  );
  // The new worktree has no installed dependencies yet (idempotent and cached where it can be).
  const environment = await environmentActivities.prepareEnvironment.executeWithOptions(
    hostOptions(run.input, workspace),
    [
      {
        worktreePath: workspace.worktreePath,
        repoPath: run.input.repoPath,
        ...(run.input.setup === undefined ? {} : { setup: run.input.setup }),
      },
    ],
  );
  session.noteGitRestored('environment setup', environment.gitRestored);
}
