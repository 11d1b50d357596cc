/**
 * The agent-written setup (docs/environments/agent-setup.md): where detection ends (the
 * preflight says the test command cannot run), one bounded model step, the harness's
 * `environment.setup`, proposes setup commands and a test command; the harness runs them
 * as it runs `commands.setup`, then the preflight, and keeps them only when the tests ran
 * (red is fine, a missing tool is not). Accepted proposals are cached per repository and
 * lockfiles, so a second run asks no model. The shapes here cross history: small, no
 * secret (the model never had one).
 */
import type { ModelSettings } from './model-options.js';
import type { RunBudget, Usage } from './usage.js';

/** The harness step's id, in artifacts, progress and the model's prompt heading. */
export const AGENT_SETUP_STEP_ID = 'environment.setup';

/** Proposals tried before the run ends ENVIRONMENT_FAILED. */
export const AGENT_SETUP_ATTEMPTS = 3;

/** Model turns one proposal may take (capped again by the agent's own per-step cap). */
export const AGENT_SETUP_MAX_TURNS = 20;

/** What the model answers, and what `.agent/config.json` `commands` would say. */
export interface AgentSetupProposal {
  /** Run in order in the worktree, with the network and no secret, like `commands.setup`. */
  readonly setup: readonly string[];
  readonly test: string;
}

/** One proposal that was not accepted, and why (shown to the next attempt and in the failure). */
export interface AgentSetupAttempt extends AgentSetupProposal {
  readonly failure: string;
  /** It came from the cache of an earlier run, not from the model. */
  readonly cached?: boolean;
}

export interface WriteEnvironmentSetupInput {
  readonly workflowId: string;
  readonly issue: number;
  /** The run's worktree at the base commit: the step sees it read-only. */
  readonly worktreePath: string;
  /** The repository (its identity keys the cache). */
  readonly repoPath: string;
  readonly artifactsDir: string;
  /** 1-based; also the step's iteration in its artifacts. */
  readonly attempt: number;
  readonly model: ModelSettings;
  /** What is left of the run's budget. */
  readonly budget: RunBudget;
  /** What detection chose (one line each) and the test command that could not run. */
  readonly detected: readonly string[];
  readonly testCommand: string;
  /** The preflight's verdict on it: why it could not run, with the lines that say so. */
  readonly failure: string;
  readonly tried: readonly AgentSetupAttempt[];
}

export interface WriteEnvironmentSetupOutput extends AgentSetupProposal {
  /** From the cache of an accepted proposal (no model request was made). */
  readonly cached: boolean;
  readonly usage: Usage;
  readonly costUsd: number;
  readonly turns: number;
}

export interface KeepEnvironmentSetupInput {
  readonly worktreePath: string;
  readonly proposal: AgentSetupProposal;
}

/** How the run's environment lines offer an accepted proposal, followed by the JSON snippet. */
export const AGENT_SETUP_KEEP_LINE = 'agent setup: to keep it, put this in .agent/config.json: ';

/** The `.agent/config.json` snippet the run offered, from its environment lines (for the PR body). PURE. */
export function agentSetupSnippetOf(lines: readonly string[]): string | undefined {
  const line = [...lines].reverse().find((l) => l.startsWith(AGENT_SETUP_KEEP_LINE));
  return line?.slice(AGENT_SETUP_KEEP_LINE.length);
}
