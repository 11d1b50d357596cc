/**
 * agent.json → the agent-level settings of the definition, with defaults applied.
 * Our own extensions: `runner.model` (with `contextManagement`), `runner.execution.worktree.branchPrefix`,
 * `runner.validation.commands`.
 */
import {
  ClosureAction,
  type LabelChange,
  type ModelSettings,
  type ParameterSpec,
  type VerdictSpec,
} from '../../contracts/definition.js';
import { DEFAULT_CONTEXT_MANAGEMENT } from '../../contracts/model-options.js';
import { DEFAULT_SYSTEM_PROMPT_PATH } from '../c3l/resolve-c3l-prompt.js';
import { DEFAULT_MAX_ITERATIONS, normaliseVerdict } from './normalise-verdict.js';
import { pointer, warning, type Problem } from '../problem.js';
import { modelId } from './model-alias.js';
import { chooseClosureAction } from './closure-action.js';
import type { RawAgentFile, RawValidationCommands } from '../load/raw-files.js';

/**
 * Sonnet 5.5: the fast model of today's line-up at half Opus 5.5's price per token ($2/$10
 * against $4/$20); a step is many turns, so the per-token price weighs most.
 */
export const DEFAULT_MODEL: ModelSettings = {
  model: 'claude-sonnet-5-5',
  maxTokens: 8192,
  maxTurnsPerStep: 40,
  contextManagement: DEFAULT_CONTEXT_MANAGEMENT,
};
/** No root by default: worktrees go to the worker's state dir, outside the work tree and any `.git`. */
export const DEFAULT_WORKTREE = { branchPrefix: 'agent' } as const;

export interface AgentSettings {
  readonly name: string;
  readonly displayName: string;
  readonly version: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, ParameterSpec>>;
  readonly verdict: VerdictSpec;
  /** The raw type name as written, for entryStepMapping lookups. */
  readonly verdictTypeName: string;
  readonly maxIterations: number;
  readonly systemPromptPath: string;
  readonly registry: string | undefined;
  readonly model: ModelSettings;
  readonly closureAction: ClosureAction;
  /** Upstream closure-adapter: with GitHub on, label-only / label-and-close select `f_<edition>_<action>.md`. */
  readonly closureAdaptation: string | undefined;
  readonly completionLabels: LabelChange;
  /** The github tool (absent when `runner.integrations.github.enabled` is false): labels it may set. */
  readonly githubTool: { readonly labels: readonly string[] } | undefined;
  readonly worktree: { readonly root: string | undefined; readonly branchPrefix: string };
  readonly validationCommands: RawValidationCommands;
}

export function normaliseAgent(agent: RawAgentFile, file: string): { settings: AgentSettings; problems: Problem[] } {
  const runner = agent.runner;
  const { spec, problems } = normaliseVerdict(runner.verdict, file);
  const maxIterations = spec.config.maxIterations;
  const { parameters, warnings } = normaliseParameters(agent, file);
  const closure = chooseClosureAction(agent, file);
  const closureAction = closure.action;
  const settings: AgentSettings = {
    name: agent.name,
    displayName: agent.displayName ?? agent.name,
    version: agent.version ?? '1.0.0',
    description: agent.description ?? '',
    parameters,
    verdict: spec,
    verdictTypeName: runner.verdict?.type ?? spec.type,
    maxIterations: typeof maxIterations === 'number' && maxIterations >= 1 ? maxIterations : DEFAULT_MAX_ITERATIONS,
    systemPromptPath: runner.flow?.systemPromptPath ?? DEFAULT_SYSTEM_PROMPT_PATH,
    registry: runner.flow?.prompts?.registry,
    model: {
      ...DEFAULT_MODEL,
      ...(runner.flow?.defaultModel === undefined ? {} : { model: modelId(runner.flow.defaultModel) }),
      ...runner.model,
      ...(runner.model?.model === undefined ? {} : { model: modelId(runner.model.model) }),
      contextManagement: { ...DEFAULT_CONTEXT_MANAGEMENT, ...runner.model?.contextManagement },
    },
    closureAction,
    closureAdaptation:
      runner.integrations?.github?.enabled !== false &&
      closure.declared !== undefined &&
      closure.declared !== ClosureAction.Close
        ? closure.declared
        : undefined,
    completionLabels: {
      add: [...(runner.integrations?.github?.labels?.completion?.add ?? [])],
      remove: [...(runner.integrations?.github?.labels?.completion?.remove ?? [])],
    },
    githubTool: runner.integrations?.github?.enabled === false ? undefined : { labels: declaredLabels(agent) },
    worktree: {
      root: runner.execution?.worktree?.root,
      branchPrefix: runner.execution?.worktree?.branchPrefix ?? DEFAULT_WORKTREE.branchPrefix,
    },
    validationCommands: runner.validation?.commands ?? {},
  };
  return { settings, problems: [...problems, ...warnings, ...(closure.notice ? [closure.notice] : [])] };
}

/**
 * Every label the agent names under `runner.integrations.github.labels`: string values
 * (`inProgress`, `blocked`, free keys) and the `completion.add/remove` lists.
 */
export function declaredLabels(agent: RawAgentFile): string[] {
  const labels: unknown = agent.runner.integrations?.github?.labels ?? {};
  const out = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string' && value.trim() !== '') out.add(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(labels);
  return [...out];
}

function normaliseParameters(
  agent: RawAgentFile,
  file: string,
): { parameters: Record<string, ParameterSpec>; warnings: Problem[] } {
  const parameters: Record<string, ParameterSpec> = {};
  const warnings: Problem[] = [];
  for (const [key, raw] of Object.entries(agent.parameters ?? {})) {
    if (raw.description === undefined) {
      warnings.push(
        warning({
          code: 'PARAMETER_DESCRIPTION_MISSING',
          file,
          pointer: pointer('parameters', key, 'description'),
          rule: 'parameter-described',
          expected: 'a description',
          message: `parameter '${key}' has no description`,
        }),
      );
    }
    parameters[key] = {
      type: raw.type,
      description: raw.description ?? '',
      required: raw.required ?? false,
      cli: raw.cli,
      ...(raw.default === undefined ? {} : { default: raw.default }),
    };
  }
  return { parameters, warnings };
}
