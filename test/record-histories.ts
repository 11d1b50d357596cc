/**
 * Records the workflow histories the replay test replays (test/fixtures/histories), one
 * per scenario (the continue-as-new chain: one per run), named for the scenario:
 *   node --import tsx test/record-histories.ts
 * Never re-record to make a failing replay test pass: that failure means in-flight runs
 * would break; gate the change with `patched()` instead (CONTRIBUTING.md, "Versioning
 * policy"). Existing files are kept (they may be the histories of an old code path); pass
 * --force to overwrite them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkflowHandle } from '@temporalio/client';
import { DEMO_DIR } from '../src/dev/sample-repo.js';
import { loadSessionScript, type SessionScript } from '../src/dev/model-server/session-script.js';
import { runScenario } from './helpers/run-scenario.js';
import * as verdictRetry from './workflows/completion/verdict-retry-agent.js';
import * as noChange from './workflows/no-change-session.js';
import * as externalState from './workflows/completion/external-state-agent.js';
import { serverAddress, teardownEnv, temporalCliPath, testEnv } from './helpers/temporal-env.js';
import { until } from './helpers/until.js';
import { agentRule, writePipelineAgents } from './workflows/pipeline/pipeline-agents.js';
import { pipelineDefinition } from './workflows/pipeline/pipeline-definitions.js';
import { ISSUE, pipelineRepo, runPipelineScenario } from './workflows/pipeline/pipeline-scenario.js';
import { runHostLostScenario } from './workflows/fleet/host-lost-scenario.js';
import { ANSWER, askingSession } from './workflows/asking-session.js';
import { answerUpdate, progressQuery, raiseBudgetUpdate } from '../src/workflows/run/messages.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'histories');

const FORCE = process.argv.includes('--force');

function kept(...files: string[]): boolean {
  if (FORCE || !files.every((f) => existsSync(join(OUT, `${f}.json`)))) return false;
  process.stdout.write(`${files.join(', ')}: kept (exists)\n`);
  return true;
}

/** Writes one run's history, in the format the Web UI and `temporal workflow show -o json` export. */
async function save(file: string, outcome: string, workflowId: string, runId?: string): Promise<void> {
  const json = execFileSync(
    temporalCliPath(),
    [
      'workflow',
      'show',
      '--address',
      serverAddress(await testEnv()),
      '--workflow-id',
      workflowId,
      ...(runId === undefined ? [] : ['--run-id', runId]),
      '--output',
      'json',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  await writeFile(join(OUT, `${file}.json`), json);
  process.stdout.write(`${file}: ${outcome}, ${(JSON.parse(json) as { events: unknown[] }).events.length} events\n`);
}

async function record(name: string, scenario: Parameters<typeof runScenario>[0]): Promise<void> {
  if (kept(name)) return;
  const { workflowId, result } = await runScenario(scenario);
  await save(name, result.outcome, workflowId);
}

/**
 * A run that continues as new: the first run of the chain (which ends with the
 * continue-as-new command) and the second (which starts from what was carried), each in
 * its own file.
 */
async function recordChain(name: string, scenario: Parameters<typeof runScenario>[0]): Promise<void> {
  const files = [`${name}-first`, `${name}-continued`];
  if (kept(...files)) return;
  const { workflowId, result } = await runScenario(scenario);
  const env = await testEnv();
  const runs: Array<{ runId: string; start: number }> = [];
  for await (const e of env.client.workflow.list({ query: `WorkflowId="${workflowId}"` }))
    runs.push({ runId: e.runId, start: e.startTime.getTime() });
  runs.sort((a, b) => a.start - b.start);
  if (runs.length < 2) throw new Error(`${name}: the run did not continue as new (${runs.length} run)`);
  for (const [i, file] of files.entries()) await save(file, result.outcome, workflowId, runs[i]!.runId);
}

/**
 * A pipeline workflow's history: implement → review (rejected) → implement → review
 * (approved) → done, the issue's branch handed to each phase's agent before its dispatch.
 */
async function recordPipeline(name: string): Promise<void> {
  if (kept(name)) return;
  const dirs = await writePipelineAgents(['considerer', 'detailer', 'implementer', 'reviewer']);
  const base = pipelineDefinition({ rules: { maxCycles: 8, cycleDelayMs: 0, maxConsecutivePhases: 0 } });
  const definition = { ...base, agents: base.agents.map((a) => ({ ...a, agentDir: dirs[a.id] ?? a.agentDir })) };
  const repoPath = await pipelineRepo(['kind:impl']);
  const { workflowId, result } = await runPipelineScenario(repoPath, definition, [
    agentRule('implementer', ISSUE, { summary: 'implemented' }),
    agentRule('reviewer', ISSUE, { verdict: 'rejected', summary: 'missing test', times: 1 }),
    agentRule('reviewer', ISSUE, { verdict: 'approved', summary: 'good' }),
  ]);
  await save(name, result.status, workflowId);
}

/**
 * A run on a file:// remote whose host (a worker process) is SIGKILLed mid-step: it moves
 * to the other host. Needs `src/worker.ts` processes.
 */
async function recordHostLost(name: string): Promise<void> {
  if (kept(name)) return;
  const { workflowId, result } = await runHostLostScenario(await testEnv());
  await save(name, result.outcome, workflowId);
}

/** True once the run's progress says it waits on `kind` (undefined before: a probe for until). */
async function waitingOn(handle: WorkflowHandle, kind: 'budget' | 'answer'): Promise<true | undefined> {
  return (await handle.query(progressQuery).catch(() => undefined))?.waiting?.kind === kind ? true : undefined;
}

/** The demo session with a 4 s first model turn, so a cancel lands while a step runs. */
function slowFirstTurn(): SessionScript {
  const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
  return {
    ...demo,
    rules: demo.rules.map((r) => (r.id === 'initial-explore' ? { ...r, respond: { ...r.respond, delayMs: 4000 } } : r)),
  };
}

/**
 * `node --import tsx test/record-histories.ts pipeline` re-records only the pipeline's
 * history; `… remote-host-lost` only the moved run's.
 */
const only = process.argv.slice(2).find((arg) => !arg.startsWith('--'));

try {
  if (only !== 'pipeline' && only !== 'remote-host-lost') await recordRuns();
  if (only !== 'remote-host-lost') {
    await recordPipeline('pipeline-review-loop');
  }
  if (only === undefined || only === 'remote-host-lost') await recordHostLost('remote-host-lost');
} finally {
  await teardownEnv();
}

async function recordRuns(): Promise<void> {
  // The demo playbook: the environment phase and preflight, one activity per model step, the
  // closure's validated closing, delivery.
  await record('demo-success', { session: join(DEMO_DIR, 'session.json') });
  // Stage 3 builds a retry prompt from the verdict's reason, the step carrying it fails its
  // schema check and keeps it, and the closure runs past the exact cap by closureGrace.
  await record('verdict-retry-prompt', {
    session: {
      name: 'verdict retry',
      rules: [
        verdictRetry.garbageAfterVerdict,
        verdictRetry.buildToldWhyAgain,
        verdictRetry.plan,
        verdictRetry.build,
        verdictRetry.closing,
      ],
    },
    agentDir: await verdictRetry.budgetAgent(),
    input: { maxIterations: 5 },
  });
  // A budget nobody raises ends the run after the pause timeout.
  await record('budget-pause-expired', {
    session: join(DEMO_DIR, 'session.json'),
    input: { budget: { maxTokens: 3000 }, budgetPauseTimeoutMs: 1500 },
  });
  // Continue-as-new past a (low) history bound.
  await recordChain('continue-as-new', {
    session: join(DEMO_DIR, 'session.json'),
    input: { tuning: { historyEventBound: 60 } },
  });
  // One progress comment kept on the issue, edited at every step.
  await record('progress-comment', {
    session: join(DEMO_DIR, 'session.json'),
    input: { progressComment: { uiWorkflowsUrl: 'http://127.0.0.1:8233/namespaces/default/workflows/' } },
  });
  // Stopped by the `cancel` signal alone (the Web UI's Signal dialog): the run requests its own
  // cancellation and ends CANCELLED.
  await record('signal-cancel', {
    session: slowFirstTurn(),
    during: async (handle, model) => {
      await until('the first model call', () => (model.stats().requests > 0 ? true : undefined), 180_000, 100);
      await handle.signal('cancel', { reason: 'stopped from the Signal dialog' });
    },
  });
  // A closing that changed nothing and declares why: a comment and a label instead of
  // delivery, outcome no-change.
  await record('no-change-declared', {
    session: noChange.changesNothing('declares no change', { ...noChange.CLOSING, no_change: noChange.NO_CHANGE }),
    issueFile: await noChange.issueFile(),
  });
  // externalState: the closing finds the issue open and polls with a timer, someone closes
  // it meanwhile, the next poll reads it closed, then the boundary runs.
  await record('external-state-closed-while-polling', await externalState.closedWhilePolling());
  // externalState: the first closing finds the issue open, polls once, goes back to the flow
  // with nothing delivered; someone closes the issue; the second closing reads it closed,
  // then the boundary runs.
  await record('external-state-closed-after-closing', await externalState.closedAfterFirstClosing());
  // A budget pause posted on the issue and shown as a wait, then raised.
  await record('budget-pause-raised', {
    session: join(DEMO_DIR, 'session.json'),
    input: { budget: { maxTokens: 3000 } },
    during: async (handle) => {
      await until('the budget pause', () => waitingOn(handle, 'budget'), 180_000, 100);
      await handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxTokens: 200_000 }] });
    },
  });
  // The model asks, the run waits, the answer update resumes it.
  await record('ask-and-wait', {
    session: askingSession(),
    during: async (handle) => {
      await until('the wait for an answer', () => waitingOn(handle, 'answer'), 180_000, 100);
      await handle.executeUpdate(answerUpdate, { args: [{ author: 'ann', text: ANSWER }] });
    },
  });
  // The playbook's five steps, each answered at once; the tests never pass.
  const answer = (stepId: string, action: string, rest: object) => ({
    id: stepId,
    when: { promptContains: `Step ${stepId}` },
    respond: { json: { stepId, status: 'completed', summary: stepId, next_action: { action, reason: 'r' }, ...rest } },
  });
  await record('never-passing-tests', {
    session: {
      name: 'never passes',
      rules: [
        answer('initial.understand', 'next', {
          understanding: { acceptance_criteria: ['a'], relevant_files: [], test_command: 'npm test' },
        }),
        answer('continuation.reproduce', 'next', {
          reproduction: { kind: 'command', command: 'npm test', observed: 'o' },
        }),
        answer('continuation.implement', 'next', { work: { changes: 'none', tests: 'none' } }),
        answer('verification.review', 'next', { review: { criteria: [], problems: [] } }),
        answer('closure.issue', 'closing', { verdict: 'done', evidence: { git_status: '', tests: '', commands: [] } }),
      ],
    },
  });
}
