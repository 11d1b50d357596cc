/**
 * A step's tools, from the step's side: which tools it gets and what they may do, the
 * context they run in (built once per step by runQueryStep: its worktree and kind, the run
 * it belongs to, the limits, the record of what they changed), and how one `tool_use`
 * block runs and becomes a `tool_result` block. Unknown tools and tools the step kind does
 * not allow become error results the model can read; only cancellation (and harness
 * faults) propagate as exceptions.
 *
 * The policy is by step kind (docs/concepts.md#step-kinds), enforced here in code, never
 * by prompt. The kinds' defaults live in contracts/step-kind-tools and are resolved into
 * the step's `readOnly` at load; `toolPolicyFor` turns a step (its kind and that
 * `readOnly`) and what the run can serve (a GitHub-integrated agent gets the `github`
 * tool) into the tools offered. docs/registry-reference.md §2.2 is its table
 * (tool-policy.test checks each row).
 *
 * How each tool honours a read-only step:
 * - the editor refuses create / str_replace / insert (view stays);
 * - bash runs with the worktree and its git dir mounted read-only in the sandbox's
 *   mount namespace (sandbox-launch): every write fails with EROFS whatever the command
 *   is. Only where the machine has no mount namespace does bash-policy's pattern check
 *   stand in, which is a guard-rail, not a boundary (docs/security.md);
 * - todo keeps the model's plan in the run's artifacts, never in the worktree: allowed;
 * - github offers only the kind's actions (reads for work and verification);
 * - ask changes nothing (it ends the step with a question): offered in every step of a run.
 *
 * There is no "boundary command" filter on bash for any kind: the agent's shell holds no
 * credential and, where namespaces allow, has no network, so `git push` or `gh issue
 * close` cannot reach anything (bash-policy, docs/security.md). Boundary effects happen
 * only in the boundary hook.
 */
import type { QueryStepRequest } from '../../contracts/activities.js';
import { HarnessStepKind, type ToolStepKind } from '../../contracts/intents.js';
import { STEP_KIND_ACCESS, type GitHubAction } from '../../contracts/step-kind-tools.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { LlmToolDefinition } from '../model/llm-client.js';
import { ASK_TOOL, checkAsk } from './ask-tool.js';
import { runBash } from './bash-tool.js';
import { runEditor } from './editor-tool.js';
import type { GitHubToolBackend } from './github-tool-backend.js';
import { GITHUB_TOOL, runGitHub } from './github-tool.js';
import { runTodo, TODO_TOOL } from './todo-tool.js';
import {
  DEFAULT_TOOL_LIMITS,
  ToolName,
  type ChangedPaths,
  type LogFn,
  type ToolContext,
  type ToolLimits,
  type ToolResult,
} from './tool-types.js';

/** A fresh record of what a step's tools changed (see ChangedPaths). */
export function createChangedPaths(): ChangedPaths {
  const paths = new Set<string>();
  let unknown = false;
  return {
    add(relative) {
      // A path outside the worktree or the worktree itself cannot be staged by name.
      if (relative === '' || relative.startsWith('..') || relative.startsWith('/')) unknown = true;
      else paths.add(relative);
    },
    markUnknown() {
      unknown = true;
    },
    list() {
      return unknown ? undefined : [...paths];
    },
  };
}

/** What of the worker's step dependencies the tools use (QueryStepDeps carries them). */
export interface StepToolDeps {
  readonly toolLimits?: Partial<ToolLimits>;
  /** Extra non-secret env for bash (e.g. a git identity). */
  readonly bashEnv?: Readonly<Record<string, string>>;
  /** The github tool's backend for this step (the activity builds it; the token stays there). */
  readonly github?: GitHubToolBackend;
}

/** What the step gives its tools besides its request: cancellation, artifacts, log, the change record. */
export interface StepToolScope {
  readonly signal: AbortSignal;
  readonly store: ArtifactStore;
  readonly log: LogFn;
  readonly changes: ChangedPaths;
}

type StepOfTools = Pick<
  QueryStepRequest,
  'worktreePath' | 'stepKind' | 'readOnly' | 'workflowId' | 'issue' | 'artifactsDir'
>;

/** The tools' view of one step (ToolContext). */
export function stepToolContext(deps: StepToolDeps, input: StepOfTools, scope: StepToolScope): ToolContext {
  return {
    changes: scope.changes,
    worktreePath: input.worktreePath,
    stepKind: input.stepKind,
    readOnly: input.readOnly,
    signal: scope.signal,
    store: scope.store,
    limits: { ...DEFAULT_TOOL_LIMITS, ...deps.toolLimits },
    log: scope.log,
    ...(deps.bashEnv ? { extraEnv: deps.bashEnv } : {}),
    run: {
      workflowId: input.workflowId,
      issue: input.issue,
      artifactsDir: input.artifactsDir,
      ...(deps.github === undefined ? {} : { github: deps.github }),
    },
  };
}

export interface ToolPolicy {
  readonly tools: readonly ToolName[];
  readonly editorWrites: boolean;
  /** False: bash sees the worktree read-only. */
  readonly bashWrites: boolean;
  /** Actions the github tool accepts in this step (empty when it is not offered). */
  readonly github: readonly GitHubAction[];
}

export interface ToolAvailability {
  /** The agent integrates GitHub (local issues count: the tool then works on the local store). */
  readonly github: boolean;
  /** The step belongs to a run that can wait for an answer (the `ask` tool). */
  readonly ask?: boolean;
}

export function toolPolicyFor(
  stepKind: ToolStepKind,
  readOnly: boolean,
  available: ToolAvailability = { github: false },
): ToolPolicy {
  // The harness's environment step reads the repository and nothing else: no plan, no
  // GitHub, no question to a person, and never a write, whatever it was asked.
  if (stepKind === HarnessStepKind.Environment)
    return { tools: [ToolName.Bash, ToolName.Editor], editorWrites: false, bashWrites: false, github: [] };
  const access = STEP_KIND_ACCESS[stepKind];
  const github = available.github ? access.github : [];
  return {
    tools: [
      ToolName.Bash,
      ToolName.Editor,
      ToolName.Todo,
      ...(github.length > 0 ? [ToolName.GitHub] : []),
      ...(available.ask === true ? [ToolName.Ask] : []),
    ],
    editorWrites: !readOnly,
    bashWrites: !readOnly,
    github,
  };
}

const DEFINITIONS: Readonly<Record<ToolName, LlmToolDefinition>> = {
  [ToolName.Bash]: { type: 'bash_20250124', name: ToolName.Bash },
  [ToolName.Editor]: { type: 'text_editor_20250728', name: ToolName.Editor },
  [ToolName.Todo]: TODO_TOOL,
  [ToolName.GitHub]: GITHUB_TOOL,
  [ToolName.Ask]: ASK_TOOL,
};

export function policyOf(ctx: Pick<ToolContext, 'stepKind' | 'readOnly' | 'run'>): ToolPolicy {
  return toolPolicyFor(ctx.stepKind, ctx.readOnly, {
    github: ctx.run?.github !== undefined,
    ask: ctx.run !== undefined,
  });
}

/** The tool definitions a step's requests carry (the model sees only what it may call). */
export function stepTools(ctx: Pick<ToolContext, 'stepKind' | 'readOnly' | 'run'>): LlmToolDefinition[] {
  return policyOf(ctx).tools.map((name) => DEFINITIONS[name]);
}

export interface ToolUseRequest {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface ToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error?: boolean;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export async function executeTool(call: ToolUseRequest, ctx: ToolContext, label: string): Promise<ToolResult> {
  const policy = policyOf(ctx);
  if (!(policy.tools as readonly string[]).includes(call.name)) {
    return {
      content: `Error: tool ${call.name} is not available in a ${ctx.stepKind} step. Available: ${policy.tools.join(', ')}.`,
      isError: true,
    };
  }
  const input = asRecord(call.input);
  switch (call.name as ToolName) {
    case 'bash':
      // A shell can change any file: the step's checkpoint then scans the whole worktree.
      ctx.changes?.markUnknown();
      return runBash(input, { ...ctx, readOnly: !policy.bashWrites }, label);
    case 'str_replace_based_edit_tool':
      return runEditor(input, { ...ctx, readOnly: !policy.editorWrites }, label);
    case 'TodoWrite':
      return runTodo(input, ctx);
    case 'github':
      return runGitHub(input, ctx, policy.github, label);
    case 'ask': {
      // A checked question never gets here: it ends the step (query-step.ts).
      const checked = checkAsk(input);
      return checked.ok
        ? { content: 'waiting for an answer', isError: false }
        : { content: checked.error, isError: true };
    }
  }
}

export async function toToolResultBlock(
  call: ToolUseRequest,
  ctx: ToolContext,
  label: string,
): Promise<ToolResultBlock> {
  const result = await executeTool(call, ctx, label);
  return result.isError
    ? { type: 'tool_result', tool_use_id: call.id, content: result.content, is_error: true }
    : { type: 'tool_result', tool_use_id: call.id, content: result.content };
}
