/**
 * The definition snapshot (seed 001: the configuration is fixed for the run): the run's
 * loadDefinition copies the definition's files into a content-addressed store; prompts,
 * schemas, retry templates, the system prompt and a custom completion handler are then
 * read from the copy only, and a copy that is gone or changed is DEFINITION_CHANGED,
 * never a different definition.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentError } from '../../../src/contracts/errors.js';
import type { AgentDefinition, StepDefinition } from '../../../src/contracts/definition.js';
import { stepPromptInput, stepSchemaInput, systemPromptInput } from '../../../src/contracts/step-inputs.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { resolveC3lPrompt } from '../../../src/definition/c3l/resolve-c3l-prompt.js';
import { resolveStepSchema } from '../../../src/definition/schema/resolve-step-schema.js';
import { buildRetryPrompt } from '../../../src/activities/conditions/retry-prompt/build-retry-prompt.js';
import { readOptional } from '../../../src/definition/load/read-optional.js';
import {
  createDefinitionSnapshots,
  createSnapshotStore,
  digestOf,
} from '../../../src/activities/definition-snapshot/definition-snapshots.js';
import { evaluateCustomVerdict } from '../../../src/activities/completion/custom-verdict.js';

const REPRODUCE = path.join('prompts', 'steps', 'continuation', 'reproduce', 'f_default.md');
const RETRY = path.join('prompts', 'steps', 'retry', 'issue', 'f_failed_git-dirty.md');

async function fixture(): Promise<{ agentDir: string; storeRoot: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-test-'));
  const agentDir = path.join(dir, 'agent');
  for (const part of ['registry', 'prompts'])
    await cp(path.join(PROJECT_ROOT, part), path.join(agentDir, part), { recursive: true });
  return { agentDir, storeRoot: path.join(dir, 'store'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The step's prompt input without its handoff variables (this test reads files, it runs no step). */
const promptOf = (definition: AgentDefinition, step: StepDefinition) =>
  stepPromptInput(definition, step, {
    'initial.understand_acceptance_criteria': 'criteria',
    'initial.understand_test_command': 'npm test',
    issue_number: '1',
  });

const changed = (pattern: RegExp) => (e: unknown) =>
  AgentError.isInstance(e) && e.code === 'DEFINITION_CHANGED' && pattern.test(e.message);

test('edits to the agent directory after the start change nothing a run reads', async () => {
  const f = await fixture();
  try {
    const snapshots = createDefinitionSnapshots(createSnapshotStore(f.storeRoot));
    const definition = await snapshots.load({ agentDir: f.agentDir });
    assert.match(definition.snapshot?.digest ?? '', /^[0-9a-f]{64}$/);
    assert.equal(definition.snapshot?.digest, definition.hash, 'the digest is the definition hash (no overrides)');
    const step = definition.steps['continuation.reproduce']!;
    const before = await resolveC3lPrompt(await snapshots.prompt(promptOf(definition, step)));
    const system = await resolveC3lPrompt(await snapshots.prompt(systemPromptInput(definition, 1, 'agent/issue-1')));
    const schema = await resolveStepSchema(await snapshots.schema(stepSchemaInput(definition, step)));

    await writeFile(path.join(f.agentDir, REPRODUCE), 'EDITED MID-RUN\n');
    await writeFile(path.join(f.agentDir, 'prompts', 'system.md'), 'EDITED SYSTEM\n');
    await writeFile(path.join(f.agentDir, RETRY), 'EDITED RETRY\n');
    await rm(path.join(f.agentDir, 'registry', 'schemas'), { recursive: true });

    const after = await resolveC3lPrompt(await snapshots.prompt(promptOf(definition, step)));
    assert.equal(after.text, before.text);
    assert.doesNotMatch(after.text, /EDITED/);
    assert.equal(
      (await resolveC3lPrompt(await snapshots.prompt(systemPromptInput(definition, 1, 'agent/issue-1')))).text,
      system.text,
    );
    assert.deepEqual(await resolveStepSchema(await snapshots.schema(stepSchemaInput(definition, step))), schema);
    const completionStep = Object.values(definition.completionSteps)[0]!;
    const retry = await buildRetryPrompt(
      { readFile: readOptional },
      await snapshots.retry({
        promptsDir: definition.promptsDir,
        c1: definition.c1,
        completionStep,
        failurePatterns: definition.failurePatterns,
        failed: [
          {
            validator: 'git-clean',
            passed: false,
            failurePattern: 'git-dirty',
            params: { files: 'a.js' },
            summary: 'dirty',
            unrecoverable: false,
          },
        ],
        snapshot: definition.snapshot!,
      }),
    );
    assert.doesNotMatch(retry.text, /EDITED/);
    assert.equal(retry.text.length > 0, true);
  } finally {
    await f.cleanup();
  }
});

test('a snapshot that changed in the store fails loudly (DEFINITION_CHANGED), naming the digest', async () => {
  const f = await fixture();
  try {
    const snapshots = createDefinitionSnapshots(createSnapshotStore(f.storeRoot));
    const definition = await snapshots.load({ agentDir: f.agentDir });
    const digest = definition.snapshot!.digest;
    const step = definition.steps['continuation.reproduce']!;
    await writeFile(path.join(f.storeRoot, digest, REPRODUCE), 'tampered\n');
    await assert.rejects(
      snapshots.prompt(promptOf(definition, step)),
      changed(new RegExp(`snapshot ${digest.slice(0, 12)} .* now hashes to`)),
    );
    // An added file counts too (C3L fallbacks look for files by name).
    await writeFile(path.join(f.storeRoot, digest, REPRODUCE), await readFile(path.join(f.agentDir, REPRODUCE)));
    await snapshots.prompt(promptOf(definition, step));
    await writeFile(path.join(f.storeRoot, digest, 'prompts', 'extra.md'), 'x');
    await assert.rejects(snapshots.schema(stepSchemaInput(definition, step)), changed(/now hashes to/));
  } finally {
    await f.cleanup();
  }
});

test('a worker without the snapshot rebuilds it only from an unchanged agent directory', async () => {
  const f = await fixture();
  try {
    const first = createDefinitionSnapshots(createSnapshotStore(f.storeRoot));
    const definition = await first.load({ agentDir: f.agentDir });
    const step = definition.steps['continuation.reproduce']!;
    // Another host: its own, empty store.
    const other = createDefinitionSnapshots(createSnapshotStore(`${f.storeRoot}-other`));
    const rebuilt = await resolveC3lPrompt(await other.prompt(promptOf(definition, step)));
    assert.match(rebuilt.text, /continuation\.reproduce/);

    await writeFile(path.join(f.agentDir, REPRODUCE), 'EDITED MID-RUN\n');
    const third = createDefinitionSnapshots(createSnapshotStore(`${f.storeRoot}-third`));
    await assert.rejects(third.prompt(promptOf(definition, step)), changed(/is not in .* now holds/));
    await rm(`${f.storeRoot}-other`, { recursive: true, force: true });
    await rm(`${f.storeRoot}-third`, { recursive: true, force: true });
  } finally {
    await f.cleanup();
  }
});

test('a custom completion handler is part of the snapshot (with its package.json) and is loaded from it', async () => {
  const f = await fixture();
  try {
    const agentFile = path.join(f.agentDir, 'registry', 'agent.json');
    const agent = JSON.parse(await readFile(agentFile, 'utf8')) as { runner: Record<string, unknown> };
    agent.runner['verdict'] = { type: 'custom', config: { handlerPath: 'handlers/done.js' } };
    await writeFile(agentFile, JSON.stringify(agent));
    await mkdir(path.join(f.agentDir, 'handlers'), { recursive: true });
    // A .js handler is an ES module only through the agent's package.json: the copy needs it too.
    await writeFile(path.join(f.agentDir, 'package.json'), '{ "type": "module" }\n');
    const handler = (reason: string) => `export default () => ({ done: false, reason: '${reason}' });\n`;
    await writeFile(path.join(f.agentDir, 'handlers', 'done.js'), handler('ORIGINAL'));
    const snapshots = createDefinitionSnapshots(createSnapshotStore(f.storeRoot));
    const definition = await snapshots.load({ agentDir: f.agentDir });
    const stored = path.join(f.storeRoot, definition.snapshot!.digest);
    assert.equal(await readFile(path.join(stored, 'handlers', 'done.js'), 'utf8'), handler('ORIGINAL'));
    assert.equal(await readFile(path.join(stored, 'package.json'), 'utf8'), '{ "type": "module" }\n');

    await writeFile(path.join(f.agentDir, 'handlers', 'done.js'), handler('EDITED'));
    const input = {
      agentDir: definition.agentDir,
      handlerPath: 'handlers/done.js',
      iteration: 1,
      output: {},
      config: {},
      snapshot: definition.snapshot!,
    };
    const mapped = await snapshots.custom(input);
    assert.equal(mapped.agentDir, stored);
    assert.deepEqual(await evaluateCustomVerdict(mapped), { done: false, reason: 'ORIGINAL' });
    // A snapshot taken before handlers were part of it does not hold one: the run goes on as it started.
    await rm(path.join(stored, 'handlers'), { recursive: true });
    await rm(path.join(stored, 'package.json'));
    const oldDigest = await digestOf(stored);
    await rename(stored, path.join(f.storeRoot, oldDigest));
    const older = { ...input, snapshot: { ...definition.snapshot!, digest: oldDigest } };
    assert.equal((await snapshots.custom(older)).agentDir, definition.agentDir);
  } finally {
    await f.cleanup();
  }
});
