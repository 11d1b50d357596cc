/**
 * Runs an agent over an eval task file: each task in its own prepared repository, as
 * runs of the agent workflow served by in-process workers (eval-task.ts, run-task.ts),
 * at most `concurrency` tasks at once; then the hidden checks against what each run
 * delivered. The model is, per mode: the environment's (ANTHROPIC_BASE_URL /
 * ANTHROPIC_API_KEY), the task's recorded session (--offline), or a scripted model
 * generated per task to measure the gate (--oracle, --no-op, --sabotage).
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { NativeConnection, WorkerOptions } from '@temporalio/worker';
import type { GateMode } from './gate/gate-sessions.js';
import { evalTaskMode, prepareTask, type EvalMode, type EvalRow, type Prepared } from './eval-task.js';
import type { EvalTaskFile } from './task-file.js';

export type { EvalMode, EvalRow } from './eval-task.js';

export interface EvalOptions {
  readonly client: Client;
  readonly connection: NativeConnection;
  readonly namespace: string;
  readonly agentDir: string;
  readonly artifactsDir: string;
  readonly concurrency: number;
  /** Play each task's recorded session (used when no gate mode is given). */
  readonly offline: boolean;
  /** Gate modes, each run on every task; empty: one run per task with the model or recording. */
  readonly modes?: readonly GateMode[];
  readonly env: NodeJS.ProcessEnv;
  readonly workflowBundle?: WorkerOptions['workflowBundle'];
  readonly onTaskDone?: (row: EvalRow) => void;
}

/** Every task in every mode, at most `concurrency` runs at once; rows in the task file's order, a task's modes together. */
export async function runEval(file: EvalTaskFile, options: EvalOptions): Promise<readonly EvalRow[]> {
  const runId = randomUUID().slice(0, 8);
  const modes: readonly EvalMode[] =
    options.modes !== undefined && options.modes.length > 0 ? options.modes : [options.offline ? 'recorded' : 'model'];
  const context = {
    client: options.client,
    connection: options.connection,
    namespace: options.namespace,
    agentDir: options.agentDir,
    artifactsDir: options.artifactsDir,
    env: options.env,
    runId,
    ...(options.workflowBundle === undefined ? {} : { workflowBundle: options.workflowBundle }),
  };
  // One lane item per task and mode; a task's preparation is shared by its modes.
  const prepared = new Map<number, Promise<Prepared>>();
  const items = file.tasks.flatMap((_, t) => modes.map((mode) => ({ t, mode })));
  const rows: EvalRow[] = new Array<EvalRow>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      const { t, mode } = items[index]!;
      const task = file.tasks[t]!;
      if (!prepared.has(t)) prepared.set(t, prepareTask(task, modes));
      rows[index] = await evalTaskMode(task, mode, prepared.get(t)!, context);
      options.onTaskDone?.(rows[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, items.length)) }, lane));
  return rows;
}
