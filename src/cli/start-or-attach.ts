/**
 * `start-run`'s one decision about the issue's Workflow ID: attach to the live run, or
 * start it (the first time, or again after a closed run). What the command says about the
 * issue branch (the base-drift note, branch-base-drift.ts: "re-cut because its base
 * moved", or "kept at the old base") is true only of a run this invocation starts, whose
 * workspace is prepared from the branch as it is now. A live run prepared its worktree
 * long before, so an invocation that attaches to it says nothing about the branch.
 *
 * The notes are read before the start (a worker re-cuts the branch as soon as it takes
 * the run, so afterwards there is nothing left to see) and said once, after the start
 * went through: a start refused (no model credentials, the server) says none of them.
 *
 * Two invocations racing for the same issue both see no live run and both start with
 * `USE_EXISTING`: the server starts one run, and the start port says which invocation's
 * request it was (host/temporal/started-by.ts); the other says it attached.
 */

/** What the decision needs of the server's description of a run. */
interface RunStatus {
  readonly status: { readonly name: string };
}

export interface StartOrAttachPorts<Run extends RunStatus> {
  /** The run of the Workflow ID as the server has it, or undefined when there is none. */
  readonly describe: () => Promise<Run | undefined>;
  /** Throws when this invocation must not start the run (it would serve it without model credentials). */
  readonly mayStart: () => Promise<void>;
  /** What starting the run will do to the workspace (the base-drift note): read before the start. */
  readonly startNotes: () => Promise<readonly string[]>;
  /** Starts the run; false when the server kept a run another invocation started meanwhile. */
  readonly start: () => Promise<boolean>;
  /** Releases the live run's steps whose worker process is gone: one line each. */
  readonly releaseOrphans: (run: Run) => Promise<readonly string[]>;
  readonly say: (line: string) => void;
}

/** The flags of this invocation that only a start applies (`--deliver`, budgets), as typed. */
export interface StartOnlyFlags {
  readonly given: readonly string[];
  /** How to start over with them: the cancel command for this issue. */
  readonly cancel: string;
}

export interface StartOrAttachResult {
  /** The run was live: this invocation started nothing. */
  readonly attaching: boolean;
}

/** Attaches to the live run of `workflowId`, or starts it and says what the start does to the workspace. */
export async function startOrAttach<Run extends RunStatus>(
  ports: StartOrAttachPorts<Run>,
  run: { readonly workflowId: string; readonly url: string; readonly startOnly?: StartOnlyFlags },
): Promise<StartOrAttachResult> {
  const existing = await ports.describe();
  if (existing?.status.name === 'RUNNING') {
    attached(ports, run);
    for (const line of await ports.releaseOrphans(existing)) ports.say(line);
    return { attaching: true };
  }
  await ports.mayStart();
  const notes = await ports.startNotes();
  if (!(await ports.start())) {
    // Its starter read the branch before its own start and says the notes.
    attached(ports, run);
    return { attaching: true };
  }
  ports.say(`started run ${run.workflowId}\nWeb UI: ${run.url}`);
  for (const note of notes) ports.say(note);
  return { attaching: false };
}

function attached(
  ports: Pick<StartOrAttachPorts<RunStatus>, 'say'>,
  run: { readonly workflowId: string; readonly url: string; readonly startOnly?: StartOnlyFlags },
): void {
  ports.say(`attached to the live run ${run.workflowId}\nWeb UI: ${run.url}`);
  // The live run keeps the input it started with: a flag that would change it is said, not dropped silently.
  if (run.startOnly !== undefined && run.startOnly.given.length > 0)
    ports.say(
      `note: ${run.startOnly.given.join(', ')} not applied: the live run keeps the settings it started with ` +
        `(to use them: ${run.startOnly.cancel}, then start-run again)`,
    );
}
