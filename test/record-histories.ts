/**
 * Re-records the workflow histories the replay test replays (test/fixtures/histories).
 * Run deliberately, after an intended, patched change to workflow code:
 *   node --import tsx test/record-histories.ts
 * Never re-record to make a failing replay test pass: that failure means in-flight runs
 * would break; gate the change with `patched()` instead.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_DIR } from '../src/dev/sample-repo.js';
import { runScenario } from './helpers/run-scenario.js';
import { resolveTemporalCliPath } from '../src/cli/temporal/temporal-cli.js';
import { serverAddress, teardownEnv, testEnv } from './helpers/temporal-env.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'histories');

async function record(name: string, scenario: Parameters<typeof runScenario>[0]): Promise<void> {
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

try {
  await record('demo-success', { session: join(DEMO_DIR, 'session.json') });
  await record('never-passing-tests', {
    session: {
      name: 'never passes',
      rules: [
        {
          id: 'plan',
          when: { promptContains: 'Step initial.issue' },
          respond: {
            json: {
              stepId: 'initial.issue',
              status: 'in_progress',
              summary: 'plan',
              next_action: { action: 'next', reason: 'r' },
              analysis: { plan: 'p', files: [] },
            },
          },
        },
        {
          id: 'work',
          when: { promptContains: 'Step continuation.issue' },
          respond: {
            json: {
              stepId: 'continuation.issue',
              status: 'completed',
              summary: 'w',
              next_action: { action: 'handoff', reason: 'r' },
              work: { changes: 'none', tests: 'none' },
            },
          },
        },
        {
          id: 'close',
          when: { promptContains: 'Step closure.issue' },
          respond: {
            json: {
              stepId: 'closure.issue',
              status: 'completed',
              summary: 'c',
              next_action: { action: 'closing', reason: 'r' },
              verdict: 'done',
              evidence: { git_status: '', tests: '' },
            },
          },
        },
      ],
    },
  });
} finally {
  await teardownEnv();
}
