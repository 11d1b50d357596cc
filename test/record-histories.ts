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
import { runScenario } from './helpers/run-scenario.js';
import { resolveTemporalCliPath } from '../src/host/temporal/temporal-cli.js';
import { serverAddress, teardownEnv, testEnv } from './helpers/temporal-env.js';
import { agentRule, writePipelineAgents } from './workflows/pipeline/pipeline-agents.js';
import { pipelineDefinition } from './workflows/pipeline/pipeline-definitions.js';
import { ISSUE, pipelineRepo, runPipelineScenario } from './workflows/pipeline/pipeline-scenario.js';
import { runHostLostScenario } from './workflows/fleet/host-lost-scenario.js';

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

/** The pipeline workflow's history: implement → review (rejected) → implement → review (approved) → done. */
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

/**
 * `node --import tsx test/record-histories.ts pipeline` re-records only the pipeline's
 * history; `… remote-host-lost` only the moved run's.
 */
const only = process.argv[2];

try {
  if (only !== 'pipeline' && only !== 'remote-host-lost') await recordRuns();
  if (only !== 'remote-host-lost') await recordPipeline('pipeline-validator-loop');
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
