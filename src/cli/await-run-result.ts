/**
 * What `start-run` does once the run is started or attached to: wait for its result,
 * printing its progress with --follow (NDJSON events with --json), serving it in this
 * process when no worker does, and releasing the steps of a worker of this host that
 * died (they are retried at once instead of after their heartbeat timeout). Kept apart
 * from start-run.ts, which decides what to start.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunProgress, RunResult } from '../contracts/run.js';
import {
  newEnvironmentLines,
  newWarningLines,
  progressKey,
  progressLine,
  stillLine,
  waitingLine,
} from '../host/progress-format.js';
import { defaultOrphanPorts, releaseOrphanedActivities } from '../host/orphans/orphaned-activities.js';
import { readRunResult } from '../host/run-result.js';
import type { CliTemporal } from '../host/temporal/temporal-client.js';
import { printLine } from '../host/terminal-text.js';
import type { runAgentWorkflow } from '../workflows/run-agent.js';
import { progressQuery } from '../workflows/run/messages.js';
import { serveUntilDone } from './serve-until-done.js';

const say = (line: string): boolean => printLine(process.stderr, line);

/** With nothing new for this long, --follow says what the run is still doing. */
const STILL_AFTER_MS = 30_000;

async function follow(
  handle: { query: (q: typeof progressQuery) => Promise<RunProgress> },
  done: () => boolean,
  json: boolean,
): Promise<void> {
  let last = '';
  let environmentShown = 0;
  const warningsShown = new Set<string>();
  let changedAt = Date.now();
  let saidAt = changedAt;
  while (!done()) {
    try {
      const p = await handle.query(progressQuery);
      const key = progressKey(p);
      const now = Date.now();
      if (key === last && !json && now - saidAt >= STILL_AFTER_MS) {
        const still = stillLine(p, now - changedAt);
        if (still !== undefined) say(`${new Date(now).toISOString().slice(11, 19)}   ${still}`);
        saidAt = now;
      }
      if (key !== last) {
        changedAt = now;
        saidAt = now;
        if (json)
          process.stdout.write(`${JSON.stringify({ event: 'progress', at: new Date().toISOString(), ...p })}\n`);
        else {
          say(`${new Date().toISOString().slice(11, 19)} ${progressLine(p).replace(/\s*\n\s*/g, ' ')}`);
          for (const line of newEnvironmentLines(p, environmentShown)) say(`  ${line}`);
          for (const line of newWarningLines(p, warningsShown)) say(`  ${line}`);
          const waiting = waitingLine(p);
          if (waiting !== undefined) say(`  ${waiting}`);
        }
        environmentShown = p.environment?.length ?? 0;
      }
      last = key;
    } catch {
      // The run may not have a workflow task yet, or just finished: try again.
    }
    await sleep(1000);
  }
}

export async function awaitResult(
  cli: CliTemporal,
  workflowId: string,
  options: { follow: boolean; embedded: boolean; json: boolean },
): Promise<RunResult> {
  const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
  return serveUntilDone(cli, readRunResult(handle), {
    embedded: options.embedded,
    ...(options.follow ? { follow: (done: () => boolean) => follow(handle, done, options.json) } : {}),
    releaseOrphans: async () => releaseOrphansOf(cli, workflowId),
  });
}

/** Fails the started steps of the run whose worker was a process of this host that is gone. */
async function releaseOrphansOf(cli: CliTemporal, workflowId: string): Promise<string[]> {
  return releaseOrphansOfRun(cli, await cli.client.workflow.getHandle(workflowId).describe());
}

/** As releaseOrphansOf, for a run already described (the live run start-run attaches to). */
export async function releaseOrphansOfRun(
  cli: CliTemporal,
  run: Parameters<typeof releaseOrphanedActivities>[0],
): Promise<string[]> {
  const ports = defaultOrphanPorts((id, error) => cli.client.activity.fail(id, error));
  return (await releaseOrphanedActivities(run, ports)).map(releasedLine);
}

const releasedLine = (released: string): string =>
  `the worker that ran ${released} is gone: that step is retried now, not after its heartbeat timeout`;
