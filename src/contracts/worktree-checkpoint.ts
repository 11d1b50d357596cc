/**
 * Worktree checkpoints: after each completed step the worktree's state (uncommitted and
 * untracked files included) is kept as a commit on a private ref, so a run reset to
 * step K (Temporal reset, the Web UI, `issue-agent reset --to-step K`) gets the files of
 * step K back before step K+1 runs again: history and files agree.
 *
 * Not to be confused with the model step's turn checkpoint (activities/model/step-state.ts).
 *
 * The refs are named from the Workflow ID (`<repo-id>/<agent>/issue-<n>`), never from the
 * run ID, so they stay the same across Temporal resets and retries:
 * `refs/agent/<agent>/issue-<n>/step-<k>`, k the step's ordinal in the run (its iteration).
 * Pure: the workflow computes the ref it hands to a step activity.
 */

/** What a step activity gets: where to record its checkpoint, and where the worktree should be. */
export interface WorktreeCheckpointRequest {
  /** The ref this step's checkpoint is recorded on (`<namespace>/step-<k>`). */
  readonly ref: string;
  /**
   * The checkpoint of the last completed step (from workflow state), absent before the
   * first one. A worktree found elsewhere (a reset run) is restored to it first.
   */
  readonly expected?: string;
}

export const CHECKPOINT_REF_ROOT = 'refs/agent';

/** One path component safe in a ref name: `[A-Za-z0-9._-]`, no leading dot or dash, no `..`, no `.lock`. */
export function refComponent(text: string): string {
  const safe = text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/\.lock$/i, '-lock');
  return safe === '' ? 'run' : safe;
}

/**
 * `refs/agent/<agent>/issue-<n>`: the agent is the middle part of a Workflow ID made by
 * start-run (`<repo-id>/<agent>/issue-<n>`); any other ID (tests, custom starters) is used whole.
 */
export function checkpointNamespace(workflowId: string, issue: number): string {
  const parts = workflowId.split('/');
  const agent = parts.length >= 3 ? (parts[parts.length - 2] ?? workflowId) : workflowId;
  return `${CHECKPOINT_REF_ROOT}/${refComponent(agent)}/issue-${issue}`;
}

export function checkpointRef(workflowId: string, issue: number, step: number): string {
  return `${checkpointNamespace(workflowId, issue)}/step-${step}`;
}

/** The step ordinal of a checkpoint ref, or undefined when the name is not `.../step-<k>`. */
export function stepOfCheckpointRef(ref: string): number | undefined {
  const match = /\/step-(\d+)$/.exec(ref);
  return match ? Number(match[1]) : undefined;
}

/** The request a step activity gets: record on step `step`'s ref; expect the last checkpoint. */
export function checkpointRequest(
  workflowId: string,
  issue: number,
  step: number,
  expected: string | undefined,
): WorktreeCheckpointRequest {
  return { ref: checkpointRef(workflowId, issue, step), ...(expected === undefined ? {} : { expected }) };
}
