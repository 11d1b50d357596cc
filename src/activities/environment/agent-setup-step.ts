/**
 * The harness's `environment.setup` step: the model reads the repository (read-only,
 * in the agent's sandbox: offline, no credential) and proposes setup commands and a
 * test command, as JSON. It runs nothing itself: the workflow hands the proposal to
 * prepareEnvironment (networked, no secret, like `commands.setup`) and the preflight,
 * which decide. A first attempt takes an accepted proposal of an earlier run of the same
 * repository and lockfiles from the cache and asks no model. Its tool loop is the agents'
 * (runQueryStep: budget checked before every call, checkpoints, transcript).
 */
import {
  AGENT_SETUP_ATTEMPTS,
  AGENT_SETUP_MAX_TURNS,
  AGENT_SETUP_STEP_ID,
  type AgentSetupAttempt,
  type AgentSetupProposal,
  type WriteEnvironmentSetupInput,
  type WriteEnvironmentSetupOutput,
} from '../../contracts/agent-setup.js';
import type { QueryStepRequest } from '../../contracts/activities.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { HarnessStepKind } from '../../contracts/intents.js';
import type { JsonObject } from '../../contracts/json.js';
import { ZERO_USAGE } from '../../contracts/usage.js';
import { HARNESS_TEMPLATES_DIR } from '../model/masked-placeholder.js';
import { runQueryStep, type QueryStepContext, type QueryStepDeps } from '../model/query-step.js';
import { fill, readTemplate } from '../watch/comment-templates.js';
import { readCachedSetup } from './agent-setup-cache.js';

type Env = Readonly<Record<string, string | undefined>>;

const COMMAND: JsonObject = { type: 'string', minLength: 1 };

/** The answer's shape, checked locally (proposalOf trims and checks again). */
const answerSchema = (command: JsonObject): JsonObject => ({
  type: 'object',
  additionalProperties: false,
  required: ['setup', 'test'],
  properties: { setup: { type: 'array', items: command }, test: command, reason: { type: 'string' } },
});
const ANSWER_SCHEMA = answerSchema(COMMAND);
/** Structured outputs take no string lengths: the local check holds them. */
const API_SCHEMA = answerSchema({ type: 'string' });

/** Shown in the model's prompt; long output cut from the front (the end says what failed). */
const MAX_FAILURE_CHARS = 4000;

function tail(text: string, max: number): string {
  return text.length > max ? `…${text.slice(text.length - max + 1)}` : text;
}

function triedBlock(header: string, tried: readonly AgentSetupAttempt[]): string {
  if (tried.length === 0) return '';
  const items = tried.map((t, i) => {
    const setup = t.setup.length === 0 ? '(none)' : t.setup.map((c) => `\`${c}\``).join(', ');
    return `${i + 1}. setup ${setup}; test \`${t.test}\`\n   ${tail(t.failure, 1500).replace(/\n/g, '\n   ')}`;
  });
  return `${header.trim()}\n\n${items.join('\n')}`;
}

export async function environmentSetupPrompt(input: WriteEnvironmentSetupInput): Promise<string> {
  const [template, triedHeader] = await Promise.all([
    readTemplate('environment-setup', HARNESS_TEMPLATES_DIR),
    readTemplate('environment-setup-tried', HARNESS_TEMPLATES_DIR),
  ]);
  return fill(template, {
    detected: input.detected.length === 0 ? '- nothing' : input.detected.map((l) => `- ${l}`).join('\n'),
    testCommand: input.testCommand,
    failure: tail(input.failure, MAX_FAILURE_CHARS).replace(/```/g, "'''"),
    tried: triedBlock(triedHeader, input.tried),
    attempt: String(input.attempt),
    attempts: String(AGENT_SETUP_ATTEMPTS),
  }).trim();
}

/** The model's answer as a proposal (the schema was checked; trimmed, empty commands dropped). */
export function proposalOf(output: Readonly<Record<string, unknown>>): AgentSetupProposal {
  const setup = Array.isArray(output['setup']) ? output['setup'] : [];
  const test = typeof output['test'] === 'string' ? output['test'].trim() : '';
  if (test === '')
    throw new AgentError(
      FailureType.StructuredOutputInvalid,
      `${AGENT_SETUP_STEP_ID} answered without a test command`,
      {
        where: AGENT_SETUP_STEP_ID,
        expected: '{"setup": ["…"], "test": "…"}',
      },
    );
  return {
    setup: setup.filter((c): c is string => typeof c === 'string' && c.trim() !== '').map((c) => c.trim()),
    test,
  };
}

export async function writeEnvironmentSetup(
  deps: QueryStepDeps & { readonly env?: Env },
  input: WriteEnvironmentSetupInput,
  ctx: QueryStepContext,
): Promise<WriteEnvironmentSetupOutput> {
  if (input.tried.length === 0) {
    const cached = await readCachedSetup(input.worktreePath, deps.env ?? process.env);
    if (cached !== undefined) return { ...cached, cached: true, usage: ZERO_USAGE, costUsd: 0, turns: 0 };
  }
  const [system, prompt] = await Promise.all([
    readTemplate('environment-setup-system', HARNESS_TEMPLATES_DIR),
    environmentSetupPrompt(input),
  ]);
  const request: QueryStepRequest = {
    workflowId: input.workflowId,
    issue: input.issue,
    stepId: AGENT_SETUP_STEP_ID,
    stepKind: HarnessStepKind.Environment,
    iteration: input.attempt,
    worktreePath: input.worktreePath,
    artifactsDir: input.artifactsDir,
    systemPrompt: system.trim(),
    // The step never sees the issue: what it prepares does not depend on it.
    issueContext: '(not shown to this step)',
    prompt,
    schema: { full: ANSWER_SCHEMA, api: API_SCHEMA },
    model: { ...input.model, maxTurnsPerStep: Math.min(input.model.maxTurnsPerStep, AGENT_SETUP_MAX_TURNS) },
    readOnly: true,
    budget: input.budget,
  };
  const answer = await runQueryStep(deps, request, ctx);
  return {
    ...proposalOf(answer.output),
    cached: false,
    usage: answer.usage,
    costUsd: answer.costUsd,
    turns: answer.turns,
  };
}
