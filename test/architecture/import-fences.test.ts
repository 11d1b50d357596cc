/**
 * The lint fences can fail: an I/O import added to workflow code, an activity import
 * in definitions, or a dependency in contracts is a lint error. Each probe lints the
 * text of a real file with one import added, through the project's own ESLint config.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { workflowBundle } from '../helpers/temporal-env.js';

const ROOT = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

async function restrictedImports(file: string, extraImport: string): Promise<string[]> {
  const path = join(ROOT, file);
  const text = `${extraImport}\n${readFileSync(path, 'utf8')}`;
  const [result] = await eslint.lintText(text, { filePath: path });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test('workflow code may not import Node built-ins, I/O packages or activity code', async () => {
  const probes = [
    "import { readFileSync } from 'node:fs';",
    "import { execa } from 'execa';",
    "import '@temporalio/activity';",
    "import { createActivities } from '../activities/create-activities.js';",
    "import { loadAgentDefinition } from '../definition/load/load-agent-definition.js';",
  ];
  for (const probe of probes) {
    const messages = await restrictedImports('src/workflows/index.ts', probe);
    assert.equal(messages.length, 1, `expected the fence to reject: ${probe}`);
    assert.match(messages[0] ?? '', /deterministic/);
  }
});

test('workflow code may import contracts and the workflow SDK', async () => {
  const messages = await restrictedImports(
    'src/workflows/index.ts',
    "import { sleep } from '@temporalio/workflow';\nimport type { Usage } from '../contracts/usage.js';",
  );
  assert.deepEqual(messages, []);
});

test('imports point one way: definitions and activities never import upward', async () => {
  const fromDefinition = await restrictedImports(
    'src/definition/problem.ts',
    "import { createActivities } from '../activities/create-activities.js';",
  );
  assert.equal(fromDefinition.length, 1);
  const fromActivities = await restrictedImports(
    'src/activities/edge/heartbeat.ts',
    "import { runAgent } from '../workflows/run-agent.js';",
  );
  assert.equal(fromActivities.length, 1);
  const fromContracts = await restrictedImports('src/contracts/json.ts', "import { parse } from 'yaml';");
  assert.equal(fromContracts.length, 1);
});

test('the workflows bundle with the Temporal bundler (its own determinism checks)', async () => {
  const { code } = await workflowBundle();
  assert.match(code, /runAgent/);
  assert.doesNotMatch(code, /require\("node:/);
});

test('the top floors point one way: host imports no cli, worker or dev; worker and dev import no cli; cli no entry point', async () => {
  const probes: readonly (readonly [string, string, RegExp])[] = [
    ['src/host/report-error.ts', "import { COMMANDS } from '../cli/flags/command-specs.js';", /host floor/],
    ['src/host/report-error.ts', "import { createRunWorker } from '../worker/create-run-worker.js';", /host floor/],
    ['src/host/report-error.ts', "import { runDemo } from '../dev/demo.js';", /host floor/],
    ['src/worker/worker-pair.ts', "import { COMMANDS } from '../cli/flags/command-specs.js';", /below the commands/],
    ['src/worker/worker-pair.ts', "import { createSampleRepo } from '../dev/sample-repo.js';", /below the commands/],
    ['src/dev/sample-repo.ts', "import { COMMANDS } from '../cli/flags/command-specs.js';", /below the commands/],
    ['src/cli/program.ts', "import '../client.js';", /entry points/],
    ['src/activities/edge/heartbeat.ts', "import { PROJECT_ROOT } from '../../host/project-root.js';", /Activities/],
  ];
  for (const [file, probe, message] of probes) {
    const messages = await restrictedImports(file, probe);
    assert.equal(messages.length, 1, `expected the fence of ${file} to reject: ${probe}`);
    assert.match(messages[0] ?? '', message);
  }
});

test('every top-level folder of src/ has a fence', async () => {
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory());
  assert.ok(folders.length >= 8, 'src/ lists its floors');
  const unfenced: string[] = [];
  for (const folder of folders) {
    const config = (await eslint.calculateConfigForFile(join(ROOT, 'src', folder.name, 'probe.ts'))) as {
      rules?: Record<string, unknown>;
    };
    if (config.rules?.['no-restricted-imports'] === undefined) unfenced.push(folder.name);
  }
  assert.deepEqual(unfenced, []);
});
