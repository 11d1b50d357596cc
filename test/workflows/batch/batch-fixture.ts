/**
 * Shared setup of the batch tests: one sample repository holding issues 1..N (all
 * labelled `ready`, all the demo's bug), the children's executions as listed by the
 * server, and the largest number of them that were open at the same moment.
 */
import { readFile } from 'node:fs/promises';
import type { Client } from '@temporalio/client';
import { createSampleRepo } from '../../../src/dev/sample-repo.js';
import { localIssuePath, writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { parseIssueFile } from '../../../src/activities/issues/issue-file.js';

export async function sampleRepoWithIssues(count: number): Promise<{ repoPath: string; issues: number[] }> {
  const { repoPath } = await createSampleRepo({ issue: 1 });
  const issues = Array.from({ length: count }, (_, i) => i + 1);
  for (const n of issues.slice(1)) {
    await writeLocalIssue(repoPath, {
      number: n,
      title: `sum() subtracts instead of adding (report ${n})`,
      body: '`sum(2, 3)` returns `-1`; it should return `5`. The test in `test/sum.test.js` fails.',
      labels: ['bug', 'ready'],
    });
  }
  return { repoPath, issues };
}

export async function readIssue(
  repoPath: string,
  issue: number,
): Promise<{ state: string; labels: readonly string[] }> {
  const path = localIssuePath(repoPath, issue);
  const file = parseIssueFile(await readFile(path, 'utf8'), path);
  return { state: file.state, labels: file.labels };
}

export interface ChildExecution {
  readonly workflowId: string;
  readonly runId: string;
  readonly status: string;
  readonly start: number;
  readonly close?: number;
  readonly parentWorkflowId?: string;
}

export async function listChildren(client: Client): Promise<ChildExecution[]> {
  const out: ChildExecution[] = [];
  for await (const w of client.workflow.list({ query: `WorkflowType = 'runAgentWorkflow'` })) {
    out.push({
      workflowId: w.workflowId,
      runId: w.runId,
      status: w.status.name,
      start: w.startTime.getTime(),
      ...(w.closeTime ? { close: w.closeTime.getTime() } : {}),
      ...(w.parentExecution?.workflowId ? { parentWorkflowId: w.parentExecution.workflowId } : {}),
    });
  }
  return out;
}

/** Sweep over [start, close) intervals: the most executions open at one instant. */
export function maxOverlap(executions: readonly ChildExecution[]): number {
  const events = executions.flatMap((e) => [
    { t: e.start, d: 1 },
    { t: e.close ?? Number.POSITIVE_INFINITY, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d); // a close at t comes before a start at t
  let open = 0;
  let max = 0;
  for (const e of events) {
    open += e.d;
    max = Math.max(max, open);
  }
  return max;
}
