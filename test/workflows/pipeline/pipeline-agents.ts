/**
 * Tiny agents for the pipeline tests, written into a temp dir: each is one gated closure
 * step (one model call) whose answer carries a `verdict` and handoff data
 * (`handoff.summary`, `handoff.plan`), label-only (a child run never closes the issue:
 * the pipeline decides), with a declared `issue` parameter and a required-with-default
 * `style` parameter that its prompt shows (so a test sees the parameters applied).
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRule } from '../../../src/dev/model-server/session-script.js';

const SCHEMA = {
  closure: {
    type: 'object',
    required: ['stepId', 'summary', 'next_action'],
    properties: {
      stepId: { type: 'string' },
      summary: { type: 'string' },
      verdict: { type: 'string' },
      handoff: { type: 'object', properties: { summary: { type: 'string' }, plan: { type: 'string' } } },
      priorities: {
        type: 'array',
        items: { type: 'object', properties: { issue: { type: 'integer' }, priority: { type: 'string' } } },
      },
      next_action: {
        type: 'object',
        required: ['action'],
        properties: { action: { type: 'string', enum: ['closing', 'repeat'] } },
      },
    },
  },
};

async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`, 'utf8');
}

/** `prioritizer`: also an `issues` parameter (shown in the prompt) and `priorities` as a handoff field. */
export async function writePipelineAgent(root: string, id: string, prioritizer = false): Promise<string> {
  const dir = join(root, id);
  await mkdir(join(dir, 'prompts', 'steps', 'closure', 'work'), { recursive: true });
  await mkdir(join(dir, 'schemas'), { recursive: true });
  await writeJson(join(dir, 'agent.json'), {
    version: '1.0.0',
    name: id,
    displayName: id,
    description: `pipeline test agent ${id}`,
    parameters: {
      issue: { type: 'number', description: 'the issue', required: true, cli: '--issue' },
      style: { type: 'string', description: 'how', required: true, default: 'terse', cli: '--style' },
      ...(prioritizer
        ? { issues: { type: 'string', description: 'open issues', required: true, cli: '--open-issues' } }
        : {}),
    },
    runner: {
      flow: { systemPromptPath: 'prompts/system.md', prompts: { registry: 'steps_registry.json' } },
      verdict: { type: 'count:iteration', config: { maxIterations: 1 } },
      boundaries: { allowedTools: ['Read'], permissionMode: 'acceptEdits' },
      integrations: { github: { enabled: false, defaultClosureAction: 'label-only' } },
    },
  });
  await writeJson(join(dir, 'steps_registry.json'), {
    agentId: id,
    version: '1.0.0',
    c1: 'steps',
    entryStepMapping: { 'count:iteration': 'closure.work' },
    steps: {
      'closure.work': {
        stepId: 'closure.work',
        name: 'Work',
        stepKind: 'closure',
        c2: 'closure',
        c3: 'work',
        edition: 'default',
        uvVariables: prioritizer ? ['issue', 'style', 'issues'] : ['issue', 'style'],
        usesStdin: false,
        outputSchemaRef: { file: 'pipeline.schema.json', schema: 'closure' },
        structuredGate: {
          allowedIntents: ['closing', 'repeat'],
          intentSchemaRef: '#/properties/next_action/properties/action',
          intentField: 'next_action.action',
          handoffFields: ['handoff.summary', 'handoff.plan', ...(prioritizer ? ['priorities'] : [])],
        },
        transitions: { closing: { target: null }, repeat: { target: 'closure.work' } },
      },
    },
  });
  await writeJson(join(dir, 'schemas', 'pipeline.schema.json'), SCHEMA);
  await writeFile(join(dir, 'prompts', 'system.md'), `You are ${id}.\n`, 'utf8');
  await writeFile(
    join(dir, 'prompts', 'steps', 'closure', 'work', 'f_default.md'),
    `Agent ${id} works issue {uv-issue} in a {uv-style} style.\n${prioritizer ? 'Open issues: {uv-issues}\n' : ''}`,
    'utf8',
  );
  return dir;
}

export async function writePipelineAgents(ids: readonly string[]): Promise<Record<string, string>> {
  const root = await mkdtemp(join(tmpdir(), 'pipeline-agents-'));
  const out: Record<string, string> = {};
  for (const id of ids) out[id] = await writePipelineAgent(root, id);
  return out;
}

/** The scripted answer of agent `id` on issue `issue` (matches only with the parameters applied). */
export function agentRule(
  id: string,
  issue: number,
  answer: { verdict?: string; summary: string; plan?: string; delayMs?: number; times?: number; ruleId?: string },
): SessionRule {
  return {
    id: answer.ruleId ?? `${id}-${answer.verdict ?? 'none'}`,
    when: { promptContains: [`Agent ${id} works issue ${issue} in a terse style.`] },
    ...(answer.times === undefined ? {} : { times: answer.times }),
    respond: {
      ...(answer.delayMs === undefined ? {} : { delayMs: answer.delayMs }),
      json: {
        stepId: 'closure.work',
        summary: answer.summary,
        ...(answer.verdict === undefined ? {} : { verdict: answer.verdict }),
        handoff: { summary: answer.summary, ...(answer.plan === undefined ? {} : { plan: answer.plan }) },
        next_action: { action: 'closing' },
      },
    },
  } as SessionRule;
}
