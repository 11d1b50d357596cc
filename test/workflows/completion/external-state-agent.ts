/**
 * The intents fixture under externalState (upstream `poll:state`), and the outside
 * actor who closes the issue while a run waits for it. Shared by
 * external-state-verdict.test.ts and test/record-histories.ts, so the recorded histories
 * are runs of the scenarios the tests assert.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { createLocalIssueStore } from '../../../src/activities/issues/local-issue-store.js';
import type { SessionRule } from '../../../src/dev/model-server/session-script.js';
import type { Scenario } from '../../helpers/run-scenario.js';
import { until } from '../../helpers/until.js';
import { build, closing, plan } from './verdict-retry-agent.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'agents', 'intents');

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export async function externalStateAgent(
  config: Record<string, unknown>,
  closureAction: 'close' | 'label-only' = 'label-only',
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-'));
  await cp(FIXTURE, dir, { recursive: true });
  const agent = JSON.parse(await readFile(join(dir, 'agent.json'), 'utf8')) as { runner: Record<string, unknown> };
  agent.runner['verdict'] = { type: 'poll:state', config };
  agent.runner['integrations'] = {
    github: { enabled: false, defaultClosureAction: closureAction, labels: { completion: { add: ['done'] } } },
  };
  await writeFile(join(dir, 'agent.json'), JSON.stringify(agent, null, 2));
  return dir;
}

/** The first build commits a file (so a delivery would move the base), then hands off. */
const buildCommits: SessionRule = {
  id: 'build-commits',
  when: { promptContains: 'Step continuation.build', turn: 0 },
  times: 1,
  respond: {
    toolUse: [
      { name: 'bash', input: { command: "echo fixed > FIXED.md && git add FIXED.md && git commit -q -m 'Fix #1'" } },
    ],
  },
};

/** Plan, build (committing once), then a closing at every visit of the closure step. */
export const RULES: readonly SessionRule[] = [plan, buildCommits, build, closing];

/** One poll of 200 ms per closing, so a closing the state does not accept goes back to the flow. */
export const ONE_SHORT_POLL = { maxIterations: 8, pollIntervalMs: 200, maxPolls: 1 };

/** The build step told why its closing was not accepted, answered slowly so a test can act first. */
export const buildToldStateNotReached: SessionRule = {
  id: 'build-told',
  when: { promptContains: ['Step continuation.build', 'target state was not reached'] },
  respond: {
    json: { stepId: 'continuation.build', summary: 'build-told', next_action: { action: 'handoff' } },
    delayMs: 1500,
  },
};

export async function events(handle: WorkflowHandle): Promise<HistoryEvent[]> {
  return (await handle.fetchHistory()).events ?? [];
}

/** Names of the activities the run scheduled, in order. */
export function activityNames(history: readonly HistoryEvent[]): string[] {
  return history
    .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
    .filter((n): n is string => typeof n === 'string');
}

async function ended(handle: WorkflowHandle): Promise<boolean> {
  return (await handle.describe()).status.name !== 'RUNNING';
}

/**
 * A closing that finds the issue open polls (up to 50 times, 300 ms apart); someone closes
 * the issue once the run waits on its durable timer, and the next poll finds it closed.
 */
export async function closedWhilePolling(): Promise<Scenario> {
  return {
    session: { name: 'external-state-polling', rules: RULES },
    agentDir: await externalStateAgent({ maxIterations: 6, pollIntervalMs: 300, maxPolls: 50 }),
    during: async (handle, _model, run) => {
      await until(
        'the closing to wait on its poll timer',
        async () => ((await events(handle)).some((e) => e.timerStartedEventAttributes) ? true : undefined),
        180_000,
        100,
      );
      await createLocalIssueStore(run.repoPath).close(run.issue);
    },
  };
}

/**
 * The first closing finds the issue open and goes back to the flow; once the build step
 * is asked again, told why, `beforeClose` looks at the world, then someone
 * closes the issue, and the second closing finds it closed.
 */
export async function closedAfterFirstClosing(
  beforeClose: (repoPath: string, issue: number) => Promise<void> = async () => {},
): Promise<Scenario> {
  return {
    session: { name: 'external-state-not-yet', rules: [buildToldStateNotReached, ...RULES] },
    agentDir: await externalStateAgent(ONE_SHORT_POLL),
    during: async (handle, model, run) => {
      await until(
        'the build step to be asked again (or the run to end)',
        async () => ((model.stats().byRule['build-told'] ?? 0) > 0 || (await ended(handle)) ? true : undefined),
        180_000,
        100,
      );
      if (await ended(handle)) return;
      await beforeClose(run.repoPath, run.issue);
      await createLocalIssueStore(run.repoPath).close(run.issue);
    },
  };
}
