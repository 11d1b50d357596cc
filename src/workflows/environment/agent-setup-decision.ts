/**
 * The agent-written setup's decisions, pure so they are tested without a run
 * (docs/environments/agent-setup.md):
 *
 * - when it runs: the run allows it (the client read `.agent/config.json`: on unless
 *   `environment.agentSetup` is false, and never over a configured `commands.setup` or
 *   `commands.test`), and the preflight stopped because the `tests` command cannot run
 *   here; a test command that runs but names no failure is not a setup problem;
 * - when a proposal is accepted: the preflight then ran the tests; passing or failing
 *   with named tests (the baseline) is fine, anything else is not;
 * - what the user is offered: the commands as `.agent/config.json` would say them.
 */
import {
  AGENT_SETUP_ATTEMPTS,
  AGENT_SETUP_KEEP_LINE,
  type AgentSetupAttempt,
  type AgentSetupProposal,
} from '../../contracts/agent-setup.js';
import type { AgentDefinition } from '../../contracts/definition.js';
import { FailureType } from '../../contracts/failures.js';
import { PreflightStatus, PreflightStopKind, type PreflightReport } from '../../contracts/preflight.js';
import { ZERO_USAGE, type Usage } from '../../contracts/usage.js';
import type { FailureInfo } from '../run/failure-info.js';

/** The validator whose command the agent-written setup replaces (the built-in `tests`). */
export const TESTS_VALIDATOR = 'tests';

export interface AgentSetupTrigger {
  readonly testCommand: string;
  /** The preflight's message: the command, what was seen, what to configure. */
  readonly failure: string;
}

/** Whether a preflight failure hands over to the agent-written setup, and with what. */
export function agentSetupTrigger(allowed: boolean | undefined, info: FailureInfo): AgentSetupTrigger | undefined {
  if (allowed !== true || info.cancelled || info.type !== FailureType.EnvironmentFailed) return undefined;
  const details = info.details[0];
  if (typeof details !== 'object' || details === null) return undefined;
  const { validator, stop, command } = details as Record<string, unknown>;
  if (validator !== TESTS_VALIDATOR || stop !== PreflightStopKind.CannotRun || typeof command !== 'string')
    return undefined;
  return { testCommand: command, failure: info.message };
}

export type Acceptance = { readonly accepted: true } | { readonly accepted: false; readonly reason: string };

/** A proposal's preflight: accepted when the test command ran its tests (red is fine). */
export function acceptance(report: PreflightReport, test: string): Acceptance {
  if (report.skipped !== undefined) return { accepted: false, reason: `the preflight did not run: ${report.skipped}` };
  const check = report.checks.find((c) => c.validator === TESTS_VALIDATOR && c.command === test);
  if (check === undefined) return { accepted: false, reason: `the preflight did not run \`${test}\`` };
  switch (check.status) {
    case PreflightStatus.Passed:
    case PreflightStatus.Baseline:
      return { accepted: true };
    case PreflightStatus.FailingOnBase:
      return { accepted: false, reason: `the tests did not run to a named result: ${check.summary}` };
    case PreflightStatus.TimedOut:
      return { accepted: false, reason: `\`${test}\` timed out in the preflight` };
  }
}

/** The definition with the proposal's test command as the `tests` validator's command. */
export function withTestCommand(definition: AgentDefinition, test: string): AgentDefinition {
  const tests = definition.validators[TESTS_VALIDATOR];
  if (tests?.type !== 'command') return definition;
  return { ...definition, validators: { ...definition.validators, [TESTS_VALIDATOR]: { ...tests, command: test } } };
}

/** The commands as `.agent/config.json` says them, ready to paste. */
export function configSnippet(proposal: AgentSetupProposal): string {
  return JSON.stringify({ commands: { setup: proposal.setup, test: proposal.test } });
}

/** What the run reports of an accepted proposal, one line each. */
export function acceptedLines(proposal: AgentSetupProposal, cached: boolean, attempt: number): string[] {
  const from = cached ? 'from the cache of an earlier run of this repository and lockfiles' : `attempt ${attempt}`;
  return [
    `agent setup: accepted (${from}): setup ${proposal.setup.length === 0 ? '(none)' : proposal.setup.map((c) => `\`${c}\``).join(', ')}; test \`${proposal.test}\``,
    `${AGENT_SETUP_KEEP_LINE}${configSnippet(proposal)}`,
  ];
}

/**
 * What a failed environment.setup step had spent (its failure's `usedTokens`/`usedUsd`, as a
 * step stopped by its turns or the budget reports them), so the run's totals still count it. PURE.
 */
export function spentBy(details: unknown): { readonly usage: Usage; readonly costUsd: number } | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const { usedTokens, usedUsd } = details as Record<string, unknown>;
  const tokens = typeof usedTokens === 'number' ? usedTokens : 0;
  const costUsd = typeof usedUsd === 'number' ? usedUsd : 0;
  if (tokens === 0 && costUsd === 0) return undefined;
  return { usage: { ...ZERO_USAGE, inputTokens: tokens }, costUsd };
}

/**
 * The line that says why a proposal failed: the failure's first line, without the code in
 * front (the run's own failure carries it) and without the preflight's "no model request
 * was made" (this step made one). PURE.
 */
export function whyNot(failure: string): string {
  const first = failure.split('\n').find((l) => l.trim() !== '') ?? failure;
  const line = first.replace(/^[A-Z][A-Z_]+: /, '').replace(/; no model request was made/, '');
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The run's end when no proposal was accepted: what detection tried, then each proposal and why not. */
export function agentSetupFailure(
  trigger: AgentSetupTrigger,
  tried: readonly AgentSetupAttempt[],
  why?: string,
): string {
  const head =
    why ??
    `no setup made the tests run: detection's \`${trigger.testCommand}\` could not run, and ${tried.length} agent-written ${tried.length === 1 ? 'setup' : 'setups'} (of at most ${AGENT_SETUP_ATTEMPTS}) did not either; no work-step model request was made`;
  const items = tried.map((t, i) => {
    const setup = t.setup.length === 0 ? '(none)' : t.setup.map((c) => `\`${c}\``).join(', ');
    return `  ${i + 1}. setup ${setup}; test \`${t.test}\`${t.cached ? ' (cached)' : ''}: ${whyNot(t.failure)}`;
  });
  return [
    head,
    `  detected: ${whyNot(trigger.failure)}`,
    ...items,
    'To fix: set commands.setup and commands.test in .agent/config.json',
  ].join('\n');
}
