/**
 * Re-records the workflow histories the replay test replays (test/fixtures/histories).
 * Run deliberately, after an intended, patched change to workflow code:
 *   node --import tsx test/record-histories.ts
 * Never re-record to make a failing replay test pass: that failure means in-flight runs
 * would break; gate the change with `patched()` instead. Existing files are kept (they are
 * the histories of the old code paths); pass --force to overwrite them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_DIR } from '../src/dev/sample-repo.js';
import { loadSessionScript, type SessionScript } from '../src/dev/model-server/session-script.js';
import { runScenario } from './helpers/run-scenario.js';
import * as verdictRetry from './workflows/completion/verdict-retry-agent.js';
import * as noChange from './workflows/no-change-session.js';
import * as externalState from './workflows/completion/external-state-agent.js';
import { resolveTemporalCliPath } from '../src/host/temporal/temporal-cli.js';
import { serverAddress, teardownEnv, testEnv } from './helpers/temporal-env.js';
import { agentRule, writePipelineAgents } from './workflows/pipeline/pipeline-agents.js';
import { pipelineDefinition } from './workflows/pipeline/pipeline-definitions.js';
import { ISSUE, pipelineRepo, runPipelineScenario } from './workflows/pipeline/pipeline-scenario.js';
import { runHostLostScenario } from './workflows/fleet/host-lost-scenario.js';
import { ANSWER, askingSession } from './workflows/asking-session.js';
import { answerUpdate, progressQuery, raiseBudgetUpdate } from '../src/workflows/run/messages.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'histories');

const FORCE = process.argv.includes('--force');

async function record(name: string, scenario: Parameters<typeof runScenario>[0]): Promise<void> {
  if (!FORCE && existsSync(join(OUT, `${name}.json`))) {
    process.stdout.write(`${name}: kept (exists)\n`);
    return;
  }
  const { workflowId, result } = await runScenario(scenario);
  // The format the Web UI and `temporal workflow show -o json` export.
  const json = execFileSync(
    resolveTemporalCliPath(),
    ['workflow', 'show', '--address', serverAddress(await testEnv()), '--workflow-id', workflowId, '--output', 'json'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  await writeFile(join(OUT, `${name}.json`), json);
  process.stdout.write(
    `${name}: ${result.outcome}, ${(JSON.parse(json) as { events: unknown[] }).events.length} events\n`,
  );
}

/**
 * A run that continues as new (patched 'run-continue-as-new'): the first run of the chain
 * (which ends with the continue-as-new command) and the second (which starts from what
 * was carried), each in its own file.
 */
async function recordChain(name: string, scenario: Parameters<typeof runScenario>[0]): Promise<void> {
  const files = [`${name}-first`, `${name}-continued`];
  if (!FORCE && files.every((f) => existsSync(join(OUT, `${f}.json`)))) {
    process.stdout.write(`${name}: kept (exists)\n`);
    return;
  }
  const { workflowId, result } = await runScenario(scenario);
  const env = await testEnv();
  const runs: Array<{ runId: string; start: number }> = [];
  for await (const e of env.client.workflow.list({ query: `WorkflowId="${workflowId}"` }))
    runs.push({ runId: e.runId, start: e.startTime.getTime() });
  runs.sort((a, b) => a.start - b.start);
  if (runs.length < 2) throw new Error(`${name}: the run did not continue as new (${runs.length} run)`);
  for (const [i, file] of files.entries()) {
    const json = execFileSync(
      resolveTemporalCliPath(),
      [
        'workflow',
        'show',
        '--address',
        serverAddress(env),
        '--workflow-id',
        workflowId,
        '--run-id',
        runs[i]!.runId,
        '--output',
        'json',
      ],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    await writeFile(join(OUT, `${file}.json`), json);
    process.stdout.write(
      `${file}: ${result.outcome}, ${(JSON.parse(json) as { events: unknown[] }).events.length} events\n`,
    );
  }
}

/** A pipeline workflow's history: implement → review (rejected) → implement → review (approved) → done. */
async function recordPipeline(name: string): Promise<void> {
  if (!FORCE && existsSync(join(OUT, `${name}.json`))) {
    process.stdout.write(`${name}: kept (exists)\n`);
    return;
  }
  const dirs = await writePipelineAgents(['considerer', 'detailer', 'implementer', 'reviewer']);
  const base = pipelineDefinition({ rules: { maxCycles: 8, cycleDelayMs: 0, maxConsecutivePhases: 0 } });
  const definition = { ...base, agents: base.agents.map((a) => ({ ...a, agentDir: dirs[a.id] ?? a.agentDir })) };
  const repoPath = await pipelineRepo(['kind:impl']);
  const { workflowId, result } = await runPipelineScenario(repoPath, definition, [
    agentRule('implementer', ISSUE, { summary: 'implemented' }),
    agentRule('reviewer', ISSUE, { verdict: 'rejected', summary: 'missing test', times: 1 }),
    agentRule('reviewer', ISSUE, { verdict: 'approved', summary: 'good' }),
  ]);
  const json = execFileSync(
    resolveTemporalCliPath(),
    ['workflow', 'show', '--address', serverAddress(await testEnv()), '--workflow-id', workflowId, '--output', 'json'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  await writeFile(join(OUT, `${name}.json`), json);
  process.stdout.write(
    `${name}: ${result.status}, ${(JSON.parse(json) as { events: unknown[] }).events.length} events\n`,
  );
}

/**
 * A run on a file:// remote whose host (a worker process) is SIGKILLed mid-step: it moves
 * to the other host (patched 'remote-rehome'). Needs `src/worker.ts` processes.
 */
async function recordHostLost(name: string): Promise<void> {
  if (!FORCE && existsSync(join(OUT, `${name}.json`))) {
    process.stdout.write(`${name}: kept (exists)\n`);
    return;
  }
  const { workflowId, result } = await runHostLostScenario(await testEnv());
  const json = execFileSync(
    resolveTemporalCliPath(),
    ['workflow', 'show', '--address', serverAddress(await testEnv()), '--workflow-id', workflowId, '--output', 'json'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  await writeFile(join(OUT, `${name}.json`), json);
  process.stdout.write(
    `${name}: ${result.outcome}, ${(JSON.parse(json) as { events: unknown[] }).events.length} events\n`,
  );
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
const only = process.argv[2];

try {
  if (only !== 'pipeline' && only !== 'remote-host-lost') await recordRuns();
  if (only !== 'remote-host-lost') {
    await recordPipeline('pipeline-validator-loop');
    // Since 'pipeline-branch-handover': a handOverBranch activity before every dispatch.
    await recordPipeline('pipeline-branch-handover');
  }
  if (only === undefined || only === 'remote-host-lost') await recordHostLost('remote-host-lost');
} finally {
  await teardownEnv();
}

async function recordRuns(): Promise<void> {
  await record('demo-success', { session: join(DEMO_DIR, 'session.json') });
  // One activity per model step (patched 'one-activity-step').
  await record('demo-success-one-activity-step', { session: join(DEMO_DIR, 'session.json') });
  // Search attributes refreshed on phase and step changes only (patched 'sparse-search-attributes').
  await record('demo-success-sparse-attributes', { session: join(DEMO_DIR, 'session.json') });
  // The environment phase and the preflight before the first model call (patched 'environment-phase').
  await record('demo-success-environment-phase', { session: join(DEMO_DIR, 'session.json') });
  // Stage 3 builds a retry prompt from the verdict's reason (patched 'verdict-retry-prompt'), the
  // step carrying it fails its schema check and keeps it ('retry-prompt-survives-schema-failure'),
  // and the closure runs past the exact cap by closureGrace.
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
  // A budget nobody raises ends the run after the pause timeout (patched 'budget-pause-timeout').
  await record('budget-pause-timeout', {
    session: join(DEMO_DIR, 'session.json'),
    input: { budget: { maxTokens: 3000 }, budgetPauseTimeoutMs: 1500 },
  });
  // Continue-as-new past a (low) history bound (patched 'run-continue-as-new').
  await recordChain('demo-continue-as-new', {
    session: join(DEMO_DIR, 'session.json'),
    input: { tuning: { historyEventBound: 60 } },
  });
  // One progress comment kept on the issue, edited at every step (patched 'progress-comment').
  await record('demo-success-progress-comment', {
    session: join(DEMO_DIR, 'session.json'),
    input: { progressComment: { uiWorkflowsUrl: 'http://127.0.0.1:8233/namespaces/default/workflows/' } },
  });
  // The definition and the system prompt as local activities (patched 'local-config-activities').
  await record('demo-success-local-config', { session: join(DEMO_DIR, 'session.json') });
  // Stopped by the `cancel` signal alone (the Web UI's Signal dialog): the run requests its own
  // cancellation and ends CANCELLED (patched 'signal-cancel-ends-cancelled').
  await record('signal-cancel', {
    session: slowFirstTurn(),
    during: async (handle, model) => {
      while (model.stats().requests === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      await handle.signal('cancel', { reason: 'stopped from the Signal dialog' });
    },
  });
  // A closing that changed nothing and declares why: a comment and a label instead of
  // delivery, outcome no-change (patched 'no-change-outcome').
  await record('no-change-declared', {
    session: noChange.changesNothing('declares no change', { ...noChange.CLOSING, no_change: noChange.NO_CHANGE }),
    issueFile: await noChange.issueFile(),
  });
  // externalState as runs before 'verdict-before-delivery' did it: the boundary first, then
  // the issue's state polled with a timer until someone closed it.
  await record('external-state-deliver-first', await externalState.closedWhilePolling());
  // externalState's verdict before any delivery (patched 'verdict-before-delivery'): the first
  // closing finds the issue open, polls once, goes back to the flow with nothing delivered;
  // someone closes the issue; the second closing reads it closed, then the boundary runs.
  await record('external-state-verdict-first', await externalState.closedAfterFirstClosing());
  // A budget pause posted on the issue and shown as a wait, then raised (patched 'budget-pause-notice').
  await record('budget-pause-notice', {
    session: join(DEMO_DIR, 'session.json'),
    input: { budget: { maxTokens: 3000 } },
    during: async (handle) => {
      while ((await handle.query(progressQuery).catch(() => undefined))?.waiting?.kind !== 'budget')
        await new Promise((resolve) => setTimeout(resolve, 100));
      await handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxTokens: 200_000 }] });
    },
  });
  // The model asks, the run waits, the answer update resumes it (patched 'ask-and-wait').
  await record('ask-and-wait', {
    session: askingSession(),
    during: async (handle) => {
      while ((await handle.query(progressQuery).catch(() => undefined))?.waiting?.kind !== 'answer')
        await new Promise((resolve) => setTimeout(resolve, 100));
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
