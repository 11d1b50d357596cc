/**
 * Starts (or attaches to) the pipeline of each queued issue, at most `concurrency` at a
 * time, and collects their results. Each pipeline is its own durable workflow: this
 * queue is the client's, so a re-run of the command attaches to live pipelines
 * (USE_EXISTING) and does not queue issues whose labels moved past the actionable phases.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PipelineDefinition } from '../../contracts/pipeline.js';
import {
  pipelineWorkflowId,
  type PipelineInput,
  type PipelineProgress,
  type PipelineResult,
} from '../../contracts/pipeline-run.js';
import { runPipelineWorkflow } from '../../workflows/pipeline/run-pipeline.js';
import { pipelineProgressQuery } from '../../workflows/pipeline/pipeline-messages.js';
import { IssueNumberKey, RepoIdKey } from '../../workflows/run/search-attributes.js';
import type { CliTemporal } from '../../host/temporal/temporal-client.js';
import { progressKey, progressLine } from './pipeline-output.js';

export interface PipelineJob {
  readonly issue: number;
  readonly title: string;
}

export interface RunPipelinesOptions {
  readonly repoId: string;
  readonly definition: PipelineDefinition;
  readonly concurrency: number;
  /** The input of one issue's pipeline. */
  readonly inputOf: (issue: number) => PipelineInput;
  readonly say: (line: string) => void;
  /** Called with each workflow's ID when it is started or attached to. */
  readonly onStarted?: (workflowId: string, attached: boolean) => void;
}

export async function startPipeline(
  cli: CliTemporal,
  options: RunPipelinesOptions,
  job: PipelineJob,
): Promise<{ workflowId: string; attached: boolean }> {
  const workflowId = pipelineWorkflowId(options.repoId, options.definition.id, job.issue);
  const existing = await cli.client.workflow
    .getHandle(workflowId)
    .describe()
    .catch(() => undefined);
  const attached = existing?.status.name === 'RUNNING';
  if (!attached)
    await cli.client.workflow.start(runPipelineWorkflow, {
      taskQueue: cli.taskQueue,
      workflowId,
      args: [options.inputOf(job.issue)],
      workflowIdConflictPolicy: 'USE_EXISTING',
      staticSummary: `Pipeline ${options.definition.id} · issue #${job.issue}: ${job.title}`.slice(0, 200),
      typedSearchAttributes: [
        { key: RepoIdKey, value: options.repoId },
        { key: IssueNumberKey, value: job.issue },
      ],
    });
  options.onStarted?.(workflowId, attached);
  return { workflowId, attached };
}

/** Runs the jobs with the concurrency limit; `follow` prints each pipeline's progress as it changes. */
export async function runPipelines(
  cli: CliTemporal,
  options: RunPipelinesOptions,
  jobs: readonly PipelineJob[],
  follow: boolean,
): Promise<PipelineResult[]> {
  const results = new Map<number, PipelineResult>();
  const queue = [...jobs];
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      const { workflowId } = await startPipeline(cli, options, job);
      const handle = cli.client.workflow.getHandle<typeof runPipelineWorkflow>(workflowId);
      let done = false;
      const watching = follow ? watch(handle, () => done, options.say) : Promise.resolve();
      try {
        results.set(job.issue, await handle.result());
      } catch (err) {
        // The workflow itself failed (terminated, or an activity's non-retryable failure): a row, not a crash.
        results.set(job.issue, {
          issue: job.issue,
          workflowId,
          cycleCount: 0,
          history: [],
          status: 'failed',
          issueClosed: false,
          reason: `pipeline ${workflowId} did not complete: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`,
        });
      } finally {
        done = true;
        await watching;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, jobs.length)) }, worker));
  return jobs.map((j) => results.get(j.issue)!).filter((r) => r !== undefined);
}

async function watch(
  handle: {
    query: (q: typeof pipelineProgressQuery) => Promise<PipelineProgress>;
  },
  done: () => boolean,
  say: (line: string) => void,
): Promise<void> {
  let last = '';
  while (!done()) {
    try {
      const p = await handle.query(pipelineProgressQuery);
      const key = progressKey(p);
      if (key !== last) say(progressLine(p));
      last = key;
    } catch {
      // No workflow task yet, or just finished: try again.
    }
    await sleep(1000);
  }
}
