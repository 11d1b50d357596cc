/**
 * Continue-as-new for the run workflow (issue 29). A run's history grows by about ten
 * events per step; a run of hundreds of steps would make every resumed worker replay all
 * of it (the replay is what a worker that never saw the run pays before the next step),
 * and approach the server's per-run limits. So between iterations, once the history has
 * RUN_HISTORY_EVENT_BOUND events, the run continues as new: same Workflow ID, the loop
 * state and the gathered facts carried in the input (contracts/carried-run.ts), no
 * activity repeated (definition, worktree, environment are carried, not redone).
 *
 * The bound: 500 events, 50–80 steps (6–10 events each). A resume then replays at
 * most that, whatever the run's length (the bench's `long` phase measures it), and each
 * continuation costs one new run start (a few events, the definition snapshot once).
 */
import { continueAsNew, log, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { CarriedRun } from '../../contracts/carried-run.js';
import type { RunInput, RunResult } from '../../contracts/run.js';
import type { RunContext } from './run-context.js';
import { AgentNameKey, DefinitionHashKey, IssueNumberKey } from './search-attributes.js';

/** What of RunSession (run/state/run-session.ts) continuing as new uses; named here, not imported (run/state imports run). */
interface CarryingSession {
  readonly input: RunInput;
  readonly workflowId: string;
  readonly state: { readonly iteration: number };
  continueFrom(carried: CarriedRun): void;
  carry(rest: Pick<CarriedRun, 'system' | 'issueContext' | 'continued'>): CarriedRun | undefined;
}

export const RUN_HISTORY_EVENT_BOUND = 500;

/** True when the run should continue as new now (only between iterations, never mid-step). */
export function historyPastBound(input: RunInput): boolean {
  const bound = input.tuning?.historyEventBound ?? RUN_HISTORY_EVENT_BOUND;
  return workflowInfo().historyLength >= bound;
}

/** Ends this run and starts the next with `carried` (throws ContinueAsNew: let it propagate). */
async function continueRun(input: RunInput, carried: CarriedRun, commentId: number | undefined): Promise<never> {
  // resumeFrom and guidance were applied by the first run; the next must not apply them again.
  const { resumeFrom: _applied, carried: _previous, guidance: _given, ...rest } = input;
  const progressComment =
    rest.progressComment === undefined || commentId === undefined
      ? rest.progressComment
      : { ...rest.progressComment, commentId };
  return continueAsNew<(input: RunInput) => Promise<RunResult>>({
    ...rest,
    ...(progressComment === undefined ? {} : { progressComment }),
    carried,
  });
}

/** A continued run (continue-as-new): everything prepare() did is carried, no command runs again. */
export function resumeCarried(session: CarryingSession, carried: CarriedRun): RunContext {
  session.continueFrom(carried);
  log.info('continued as new', { continued: carried.continued, iteration: session.state.iteration });
  upsertSearchAttributes([
    { key: AgentNameKey, value: carried.definition.name },
    { key: DefinitionHashKey, value: carried.definition.hash },
    { key: IssueNumberKey, value: session.input.issue },
  ]);
  return {
    input: session.input,
    workflowId: session.workflowId,
    definition: carried.definition,
    workspace: carried.workspace,
    system: carried.system,
    issueContext: carried.issueContext,
    maxIterations: carried.maxIterations,
  };
}

/** Continues the run as new with its state and context (run/continue-as-new.ts). */
export async function continueAsNext(
  session: CarryingSession,
  ctx: RunContext,
  progressCommentId: number | undefined,
): Promise<void> {
  const carried = session.carry({
    system: ctx.system,
    issueContext: ctx.issueContext,
    continued: (ctx.input.carried?.continued ?? 0) + 1,
  });
  if (carried !== undefined) await continueRun(ctx.input, carried, progressCommentId);
}
