/**
 * Acceptance with an agent that is not the project's (issue 27): a verification step's
 * attempt to edit a file is refused by default. The agent is written here in upstream's
 * shape: agent-level `acceptEdits` (as upstream's reviewer), work → verification → closure.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { executeTool } from '../../../src/activities/tools/tool-dispatcher.js';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { toolContext } from './tool-fixtures.js';

const EDITOR = 'str_replace_based_edit_tool';

/**
 * An agent written here in upstream's shape (agent-level `acceptEdits`, as upstream's
 * reviewer): work → verification → closure. Its verification step is read-only all the same
 * (upstream: the kind's default wins over the agent-level mode) unless the step says so.
 */
async function writeReviewAgent(verificationMode?: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'review-agent-'));
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write(
    'agent.json',
    JSON.stringify({
      name: 'reviewer-probe',
      version: '1.0.0',
      description: 'implements, then reviews',
      parameters: {},
      runner: {
        flow: { systemPromptPath: 'prompts/system.md', prompts: { registry: 'steps_registry.json' } },
        verdict: { type: 'detect:graph', config: { maxIterations: 6 } },
        boundaries: { allowedTools: ['Read', 'Write', 'Edit', 'Bash'], permissionMode: 'acceptEdits' },
        integrations: { github: { enabled: false, defaultClosureAction: 'close' } },
      },
    }),
  );
  const gate = (intents: string[]) => ({
    allowedIntents: intents,
    intentField: 'next_action.action',
    intentSchemaRef: '#/properties/next_action/properties/action',
  });
  const step = (id: string, kind: string, c2: string, c3: string, intents: string[]) => ({
    stepId: id,
    name: id,
    stepKind: kind,
    c2,
    c3,
    edition: 'default',
    uvVariables: [],
    usesStdin: false,
    outputSchemaRef: { file: 'out.schema.json', schema: intents.join('-') },
    structuredGate: gate(intents),
    ...(kind === 'verification' && verificationMode !== undefined ? { permissionMode: verificationMode } : {}),
  });
  write(
    'steps_registry.json',
    JSON.stringify({
      agentId: 'reviewer-probe',
      version: '1.0.0',
      c1: 'steps',
      entryStepMapping: { 'detect:graph': 'initial.implement' },
      steps: {
        'initial.implement': {
          ...step('initial.implement', 'work', 'initial', 'implement', ['next']),
          transitions: { next: { target: 'verification.review' } },
        },
        'verification.review': {
          ...step('verification.review', 'verification', 'verification', 'review', ['next']),
          transitions: { next: { target: 'closure.done' } },
        },
        'closure.done': {
          ...step('closure.done', 'closure', 'closure', 'done', ['closing']),
          transitions: { closing: { target: null } },
        },
      },
    }),
  );
  const schema = (intent: string) => ({
    type: 'object',
    required: ['next_action'],
    properties: {
      next_action: {
        type: 'object',
        required: ['action'],
        properties: { action: { type: 'string', enum: [intent] } },
      },
    },
  });
  write('schemas/out.schema.json', JSON.stringify({ next: schema('next'), closing: schema('closing') }));
  write('prompts/system.md', 'You implement, then review.\n');
  for (const [c2, c3] of [
    ['initial', 'implement'],
    ['verification', 'review'],
    ['closure', 'done'],
  ])
    write(`prompts/steps/${c2}/${c3}/f_default.md`, `Step ${c2}.${c3}\n`);
  return dir;
}

test('an agent written here: its verification step may not edit a file, despite the agent-level acceptEdits', async () => {
  const definition = await loadAgentDefinitionOrThrow(await writeReviewAgent());
  const steps = definition.steps;
  assert.deepEqual(
    Object.values(steps).map((s) => [s.stepId, s.readOnly]),
    [
      ['initial.implement', false],
      ['verification.review', true],
      ['closure.done', false],
    ],
  );
  const review = steps['verification.review']!;
  const ctx = toolContext({ stepKind: review.stepKind, readOnly: review.readOnly });
  writeFileSync(path.join(ctx.worktreePath, 'a.js'), 'old\n');
  const edit = { command: 'str_replace', path: 'a.js', old_str: 'old', new_str: 'new' };
  const refused = await executeTool({ id: '1', name: EDITOR, input: edit }, ctx, 'l');
  assert.equal(refused.isError, true);
  assert.match(refused.content, /read-only: str_replace is not allowed/);
  assert.equal(readFileSync(path.join(ctx.worktreePath, 'a.js'), 'utf8'), 'old\n');
  // The step's own permissionMode grants writes.
  const granted = await loadAgentDefinitionOrThrow(await writeReviewAgent('acceptEdits'));
  assert.equal(granted.steps['verification.review']?.readOnly, false);
  // The load says the agent-level mode did not reach the verification step (docs §2), and only then.
  const agentLevel = (d: { warnings: readonly string[] }) =>
    d.warnings.some((w) => w.includes('PERMISSION_MODE_AGENT_LEVEL'));
  assert.equal(agentLevel(definition), true);
  assert.equal(agentLevel(granted), false);
});
