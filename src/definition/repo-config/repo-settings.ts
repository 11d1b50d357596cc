/**
 * Everything a run takes from the target repository: `.agent/config.json` when present,
 * detected commands for what it leaves out, and AGENTS.md / CLAUDE.md. `notes` says what
 * was chosen and why, for the CLI to print on stderr.
 */
import type { PlanApprovalPolicy } from '../../contracts/plan-approval.js';
import { isAbsolute, join } from 'node:path';
import {
  setupCommandsOf,
  type DefinitionOverrides,
  type RepoCommands,
  type RepoConfigFile,
} from '../../contracts/repo-config.js';
import { detectCommands } from './detect-commands.js';
import { readRepoConfig, REPO_AGENT_DIR, REPO_CONFIG_FILE } from './read-repo-config.js';
import { readRepoInstructions } from './repo-instructions.js';

export interface RepoSettings {
  readonly config: RepoConfigFile;
  /** True when `.agent/config.json` exists. */
  readonly fromFile: boolean;
  readonly overrides: DefinitionOverrides;
  readonly instructions: string;
  /** Absolute agent directory named by the config file, if any. */
  readonly agentDir?: string;
  /** `commands.setup` as a list: the environment phase runs it instead of detecting. */
  readonly setup?: readonly string[];
  /**
   * The model may write the setup where detection ends: on unless `environment.agentSetup`
   * is false (its commands run in the agent's sandbox, with the network: the step that writes
   * them sees the repository but not the issue), and never over the user's own
   * `commands.setup` or `commands.test`.
   */
  readonly agentSetup: boolean;
  readonly notes: readonly string[];
}

export async function repoSettings(repoPath: string): Promise<RepoSettings> {
  const file = await readRepoConfig(repoPath);
  const config = file ?? {};
  const notes: string[] = [];
  const { setup: _setup, ...validatorCommands } = config.commands ?? {};
  const configured: RepoCommands = { ...validatorCommands };
  if (file) notes.push(`settings from ${REPO_CONFIG_FILE}`);
  if (configured.test === undefined) {
    const detected = await detectCommands(repoPath);
    for (const [key, command] of Object.entries(detected.commands) as [keyof RepoCommands, string][]) {
      if (configured[key] === undefined) configured[key] = command;
    }
    if (detected.reasons.length > 0)
      notes.push(`detected ${detected.reasons.join('; ')} (set commands in ${REPO_CONFIG_FILE} to change)`);
    else
      notes.push(
        `no test command detected: the agent's own (runner.validation.commands.test) is used; set commands.test in ${REPO_CONFIG_FILE}`,
      );
  }
  const setup = setupCommandsOf(config.commands);
  if (setup !== undefined) notes.push(`setup: ${setup.join(' && ')} (commands.setup in ${REPO_CONFIG_FILE})`);
  const instructions = await readRepoInstructions(repoPath);
  if (instructions.files.length > 0) notes.push(`repository instructions: ${instructions.files.join(', ')}`);
  const overrides: DefinitionOverrides = {
    ...(Object.keys(configured).length > 0 ? { validationCommands: configured } : {}),
    ...(config.model === undefined ? {} : { model: config.model }),
  };
  const agentDir =
    config.agent === undefined
      ? undefined
      : isAbsolute(config.agent)
        ? config.agent
        : join(repoPath, REPO_AGENT_DIR, config.agent);
  return {
    config,
    fromFile: file !== undefined,
    overrides,
    instructions: instructions.text,
    ...(agentDir === undefined ? {} : { agentDir }),
    ...(setup === undefined ? {} : { setup }),
    agentSetup: config.environment?.agentSetup !== false && setup === undefined && config.commands?.test === undefined,
    notes,
  };
}

/**
 * What `.agent/config.json` sets for every run of the repository, whoever starts it
 * (start-run adds its flags on top; watch and start-batch pass these as they are). PURE.
 */
export function configuredRunFields(settings: RepoSettings): {
  budget?: { maxUsd?: number; maxTokens?: number };
  answerTimeoutMs?: number;
  setup?: readonly string[];
  agentSetup?: boolean;
  maxIterations?: number;
  planApproval?: PlanApprovalPolicy;
} {
  const { budget, answerTimeoutHours, maxIterations, planApproval } = settings.config;
  return {
    ...(budget?.maxUsd === undefined && budget?.maxTokens === undefined ? {} : { budget: { ...budget } }),
    ...(answerTimeoutHours === undefined ? {} : { answerTimeoutMs: answerTimeoutHours * 3_600_000 }),
    ...(settings.setup === undefined ? {} : { setup: settings.setup }),
    ...(settings.agentSetup ? { agentSetup: true } : {}),
    ...(maxIterations === undefined ? {} : { maxIterations }),
    ...(planApproval === undefined || planApproval === 'never' ? {} : { planApproval }),
  };
}
