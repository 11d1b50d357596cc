/**
 * The definition snapshot with an agent laid out unlike the project's own: upstream
 * layout (agent.json at the root), the registry in a subdirectory, a non-default `c1`,
 * the system prompt outside prompts/, a schema `$ref` into a second schema file, a
 * `section.*` fragment and a label-only closure adaptation. Editing every one of those
 * files after the start, and adding the adaptation's variant file that did not exist,
 * changes nothing the run reads. Built from the sectioned fixture in a temp dir.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stepPromptInput, stepSchemaInput, systemPromptInput } from '../../../src/contracts/step-inputs.js';
import { resolveC3lPrompt } from '../../../src/definition/c3l/resolve-c3l-prompt.js';
import { resolveStepSchema } from '../../../src/definition/schema/resolve-step-schema.js';
import {
  createDefinitionSnapshots,
  createSnapshotStore,
} from '../../../src/activities/definition-snapshot/definition-snapshots.js';

const SECTIONED = fileURLToPath(new URL('../../fixtures/agents/sectioned/', import.meta.url));

async function editJson(file: string, edit: (v: Record<string, any>) => void): Promise<void> {
  const value = JSON.parse(await readFile(file, 'utf8')) as Record<string, any>;
  edit(value);
  await writeFile(file, JSON.stringify(value, null, 2));
}

async function writeAgent(root: string): Promise<string> {
  const dir = path.join(root, 'agent');
  await cp(SECTIONED, dir, { recursive: true });
  await rename(path.join(dir, 'prompts', 'steps'), path.join(dir, 'prompts', 'dev'));
  await rename(path.join(dir, 'prompts', 'system.md'), path.join(dir, 'system.md'));
  await rm(path.join(dir, 'prompts', 'dev', 'closure', 'done', 'f_default_label-only.md'));
  await mkdir(path.join(dir, 'config'));
  await rename(path.join(dir, 'steps_registry.json'), path.join(dir, 'config', 'flow.json'));
  await editJson(path.join(dir, 'config', 'flow.json'), (r) => {
    r['c1'] = 'dev';
  });
  await editJson(path.join(dir, 'agent.json'), (a) => {
    a['runner'].flow.systemPromptPath = 'system.md';
    a['runner'].flow.prompts.registry = 'config/flow.json';
  });
  // The base of every step's output moves to a second schema file, reached by $ref.
  const flowSchema = path.join(dir, 'schemas', 'flow.schema.json');
  const schema = JSON.parse(await readFile(flowSchema, 'utf8')) as Record<string, any>;
  await writeFile(path.join(dir, 'schemas', 'common.schema.json'), JSON.stringify({ $defs: schema['$defs'] }));
  await writeFile(flowSchema, JSON.stringify(schema, null, 2).replaceAll('"#/$defs/', '"common.schema.json#/$defs/'));
  assert.match(await readFile(flowSchema, 'utf8'), /common\.schema\.json#/, 'the $ref goes to the second file');
  return dir;
}

test('an upstream-layout agent with its files elsewhere: nothing edited or added mid-run reaches the run', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'snapshot-upstream-'));
  try {
    const agentDir = await writeAgent(root);
    const snapshots = createDefinitionSnapshots(createSnapshotStore(path.join(root, 'store')));
    const definition = await snapshots.load({ agentDir });
    assert.equal(definition.c1, 'dev');
    assert.equal(definition.closureAdaptation, 'label-only');
    const work = definition.steps['initial.work']!;
    const closure = definition.steps['closure.done']!;
    const vars = { topic: 't', depth: '1', projectTitle: 'Apollo', initial_work_plan: 'p', initial_work_risk: 'r' };
    const read = async () => ({
      work: (await resolveC3lPrompt(await snapshots.prompt(stepPromptInput(definition, work, vars)))).text,
      closure: (await resolveC3lPrompt(await snapshots.prompt(stepPromptInput(definition, closure, vars)))).text,
      system: (await resolveC3lPrompt(await snapshots.prompt(systemPromptInput(definition, 1, 'agent/issue-1')))).text,
      schema: await resolveStepSchema(await snapshots.schema(stepSchemaInput(definition, work))),
    });
    const before = await read();
    assert.match(before.work, /^## Project Apollo/, 'the section fragment is in');
    assert.match(before.closure, /close variant/, 'no label-only variant at the start: f_default');

    const prompts = path.join(agentDir, 'prompts', 'dev');
    await writeFile(path.join(prompts, 'initial', 'work', 'f_default.md'), 'EDITED work\n');
    await writeFile(path.join(prompts, 'section', 'project', 'f_context.md'), 'EDITED section\n');
    await writeFile(path.join(prompts, 'closure', 'done', 'f_default_label-only.md'), 'ADDED variant\n');
    await writeFile(path.join(agentDir, 'system.md'), 'EDITED system\n');
    await writeFile(path.join(agentDir, 'schemas', 'common.schema.json'), JSON.stringify({ $defs: {} }));
    await rm(path.join(agentDir, 'config'), { recursive: true });

    const after = await read();
    assert.deepEqual(after, before);
    for (const text of [after.work, after.closure, after.system]) assert.doesNotMatch(text, /EDITED|ADDED/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
