/**
 * Runs an agent over an eval task file: each task in its own prepared repository, as a
 * run of the agent workflow served by an in-process worker, at most `concurrency` at
 * once; then the hidden checks against what the run delivered. With `offline`, each task
 * gets its own offline model server playing the task's recorded session; otherwise the
 * worker talks to whatever Messages-API endpoint the environment names
 * (ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY).
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { WorkerOptions } from '@temporalio/worker';
import type { RunResult } from '../../contracts/run.js';
import { totalTokens } from '../../contracts/usage.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { createDefaultDeps } from '../../activities/deps.js';
import { createRunWorker } from '../../worker/create-run-worker.js';
import { runAgentWorkflow } from '../../workflows/run-agent.js';
import { createModelServer, type ModelServer } from '../model-server/model-server.js';
import type { EvalTask, EvalTaskFile } from './task-file.js';
import { EVAL_ISSUE, prepareTaskRepo, runHiddenChecks, type CheckResult } from './task-repo.js';

export interface EvalOptions {
  readonly client: Client;
  readonly connection: NativeConnection;
  readonly namespace: string;
  readonly agentDir: string;
  readonly artifactsDir: string;
  readonly concurrency: number;
  readonly offline: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly workflowBundle?: WorkerOptions['workflowBundle'];
  readonly onTaskDone?: (row: EvalRow) => void;
}

export interface EvalRow {
  readonly task: string;
  readonly solved: boolean;
  readonly outcome: RunResult['outcome'] | 'error';
  readonly iterations: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly wallMs: number;
  /** What the checks ran against: `main` after a merge, the run's branch, or none. */
  readonly delivered: string | null;
  readonly checks: readonly CheckResult[];
  readonly reason: string;
  readonly repoPath?: string;
  readonly workflowId?: string;
}

/** The only variables the hidden checks see: no key or token can reach them. */
function checkEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const keep = [
    'PATH',
    'HOME',
    'LANG',
    'TMPDIR',
    'GOPATH',
    'GOCACHE',
    'GOMODCACHE',
    'GOFLAGS',
    'PYENV_ROOT',
    'PYENV_VERSION',
  ];
  return Object.fromEntries(keep.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
}

function deliveredRef(result: RunResult): string | null {
  if (result.outcome !== 'success') return null;
  const merged = result.boundary?.effects.some(
    (e) => e.name === 'merge' && (e.status === 'done' || e.status === 'already-done'),
  );
  return merged === true ? 'main' : (result.branch ?? null);
}

async function runTask(task: EvalTask, options: EvalOptions, runId: string): Promise<EvalRow> {
  const started = Date.now();
  let model: ModelServer | undefined;
  let repoPath: string | undefined;
  try {
    if (options.offline && task.session === undefined)
      throw new AgentError(FailureType.ConfigInvalid, `task ${task.id} has no session for --offline`, {
        where: `task ${task.id}`,
        expected: 'a "session" path to a recorded session script',
      });
    repoPath = await prepareTaskRepo(task);
    if (options.offline) model = await createModelServer({ session: task.session! });
    const { ANTHROPIC_API_KEY: key, ...rest } = options.env;
    const env = model === undefined ? options.env : { ...rest, ANTHROPIC_BASE_URL: model.url };
    void key;
    const taskQueue = `issue-agent-eval-${runId}-${task.id}`;
    const { worker } = await createRunWorker({
      address: '',
      connection: options.connection,
      namespace: options.namespace,
      taskQueue,
      deps: createDefaultDeps(env),
      ...(options.workflowBundle === undefined ? {} : { workflowBundle: options.workflowBundle }),
    });
    const workflowId = `issue-agent-eval-${runId}-${task.id}-issue-${EVAL_ISSUE}`;
    const handle = await options.client.workflow.start(runAgentWorkflow, {
      taskQueue,
      workflowId,
      staticSummary: `Eval task ${task.id}`,
      args: [
        {
          issue: EVAL_ISSUE,
          agentDir: options.agentDir,
          repoPath,
          issueSource: 'local',
          // The task repository is a throwaway copy: delivering into its main is what a
          // maintainer would do, and the hidden checks then run on main.
          delivery: 'merge',
          artifactsDir: options.artifactsDir,
        },
      ],
    });
    const result = await worker.runUntil(handle.result());
    const delivered = deliveredRef(result);
    const checks = delivered === null ? [] : await runHiddenChecks(repoPath, delivered, task, checkEnv(options.env));
    const solved = delivered !== null && checks.every((c) => c.exitCode === 0);
    const failed = checks.find((c) => c.exitCode !== 0);
    return {
      task: task.id,
      solved,
      outcome: result.outcome,
      iterations: result.iterations,
      tokens: totalTokens(result.usage),
      costUsd: result.costUsd,
      wallMs: Date.now() - started,
      delivered,
      checks,
      reason:
        delivered === null
          ? `not delivered: ${result.reason}`
          : failed === undefined
            ? 'hidden checks pass'
            : `hidden check failed: ${failed.command} (exit ${failed.exitCode})`,
      repoPath,
      workflowId,
    };
  } catch (err) {
    return {
      task: task.id,
      solved: false,
      outcome: 'error',
      iterations: 0,
      tokens: 0,
      costUsd: 0,
      wallMs: Date.now() - started,
      delivered: null,
      checks: [],
      reason: err instanceof Error ? err.message : String(err),
      ...(repoPath === undefined ? {} : { repoPath }),
    };
  } finally {
    await model?.close();
  }
}

/** Every task, at most `concurrency` at once; rows in the task file's order. */
export async function runEval(file: EvalTaskFile, options: EvalOptions): Promise<readonly EvalRow[]> {
  const runId = randomUUID().slice(0, 8);
  const rows: EvalRow[] = new Array<EvalRow>(file.tasks.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < file.tasks.length) {
      const index = next++;
      const row = await runTask(file.tasks[index]!, options, runId);
      rows[index] = row;
      options.onTaskDone?.(row);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, file.tasks.length)) }, lane));
  return rows;
}
