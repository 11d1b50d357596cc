/**
 * The agent-written setup, in the workflow (docs/environments/agent-setup.md): where the
 * preflight found that the detected test command cannot run, up to AGENT_SETUP_ATTEMPTS
 * times the harness's `environment.setup` step proposes setup and test commands (or the
 * cache of an earlier run does), prepareEnvironment runs the setup as it runs a configured
 * `commands.setup` (network, no secret, in the sandbox; no shared cache writable), and the
 * preflight runs the test command offline in the sandbox. The first proposal whose tests
 * ran is kept (cached, reported with a `.agent/config.json` snippet) and its test command
 * becomes the `tests` validator's for the rest of the run; none: ENVIRONMENT_FAILED naming
 * every proposal and why it failed, before any work step's model request.
 *
 * No patch: only a run started with `agentSetup` in its input reaches any of this, and
 * no run recorded before the field existed has it, so their commands are unchanged.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { AGENT_SETUP_ATTEMPTS, type AgentSetupAttempt, type AgentSetupProposal } from '../../contracts/agent-setup.js';
import type { AgentDefinition } from '../../contracts/definition.js';
import { FailureType } from '../../contracts/failures.js';
import type { PreflightReport } from '../../contracts/preflight.js';
import { onRunHost } from '../hosting/run-host.js';
import {
  configActivities,
  environmentActivities,
  modelActivities,
  workspaceActivities,
} from '../run/activity-proxies.js';
import { failureInfo } from '../run/failure-info.js';
import { remainingBudget } from '../run/state/run-state.js';
import { environmentStepSpent } from '../run/state/run-transitions.js';
import type { RunSession } from '../run/state/run-session.js';
import {
  acceptance,
  acceptedLines,
  agentSetupFailure,
  spentBy,
  whyNot,
  withTestCommand,
  type AgentSetupTrigger,
} from './agent-setup-decision.js';
import { environmentLines, preflightLines } from './environment-lines.js';

export interface AgentSetupResult {
  readonly definition: AgentDefinition;
  readonly preflight: PreflightReport;
}

const environmentFailed = (message: string): ApplicationFailure =>
  ApplicationFailure.create({ type: FailureType.EnvironmentFailed, message, nonRetryable: true });

export async function runAgentSetup(
  session: RunSession,
  definition: AgentDefinition,
  detected: readonly string[],
  trigger: AgentSetupTrigger,
): Promise<AgentSetupResult> {
  const run = { input: session.input, definition };
  const tried: AgentSetupAttempt[] = [];
  session.noteEnvironment([`agent setup: \`${trigger.testCommand}\` cannot run here; the model writes the setup`]);
  for (let attempt = 1; attempt <= AGENT_SETUP_ATTEMPTS; attempt++) {
    if (!session.budgetAvailable())
      throw environmentFailed(
        agentSetupFailure(trigger, tried, 'the budget ran out before a setup made the tests run'),
      );
    session.setPhase('environment');
    const written = await onRunHost(run, session, (onHost, at) =>
      modelActivities.writeEnvironmentSetup.executeWithOptions(
        { summary: `environment.setup · attempt ${attempt}`, ...onHost },
        [
          {
            workflowId: session.workflowId,
            issue: session.input.issue,
            worktreePath: at.worktreePath,
            repoPath: session.input.repoPath,
            artifactsDir: session.input.artifactsDir,
            attempt,
            model: definition.model,
            budget: remainingBudget(session.state),
            detected,
            testCommand: trigger.testCommand,
            failure: trigger.failure,
            tried: [...tried],
          },
        ],
      ),
    ).catch((err: unknown) => {
      const info = failureInfo(err);
      if (info.cancelled) throw err;
      const spent = spentBy(info.details[0]);
      if (spent !== undefined) session.apply(environmentStepSpent, spent.usage, spent.costUsd);
      throw environmentFailed(agentSetupFailure(trigger, tried, `the environment.setup step failed: ${info.message}`));
    });
    session.apply(environmentStepSpent, written.usage, written.costUsd);
    const proposal: AgentSetupProposal = { setup: written.setup, test: written.test };
    const candidate = withTestCommand(definition, proposal.test);
    const outcome = await tryProposal(session, candidate, proposal);
    if (outcome.accepted) {
      await onRunHost(run, session, (onHost, at) =>
        configActivities.keepEnvironmentSetup.executeWithOptions(onHost, [{ worktreePath: at.worktreePath, proposal }]),
      );
      session.noteEnvironment(acceptedLines(proposal, written.cached, attempt));
      return { definition: candidate, preflight: outcome.preflight };
    }
    tried.push({ ...proposal, failure: outcome.reason, ...(written.cached ? { cached: true } : {}) });
    session.noteEnvironment([`agent setup: attempt ${attempt} not accepted: ${whyNot(outcome.reason)}`]);
  }
  throw environmentFailed(agentSetupFailure(trigger, tried));
}

type Outcome =
  | { readonly accepted: true; readonly preflight: PreflightReport }
  | { readonly accepted: false; readonly reason: string };

/** The proposal's setup, then the preflight with its test command; an environment failure is a reason, not the run's end. */
async function tryProposal(
  session: RunSession,
  definition: AgentDefinition,
  proposal: AgentSetupProposal,
): Promise<Outcome> {
  const run = { input: session.input, definition };
  try {
    if (proposal.setup.length > 0) {
      const environment = await onRunHost(run, session, (onHost, at) =>
        environmentActivities.prepareEnvironment.executeWithOptions(onHost, [
          {
            worktreePath: at.worktreePath,
            repoPath: session.input.repoPath,
            setup: proposal.setup,
            agentWritten: true,
          },
        ]),
      );
      session.noteGitRestored('agent-written setup', environment.gitRestored);
      session.noteEnvironment(environmentLines(environment).map((l) => `agent setup: ${l}`));
    }
    session.setPhase('preflight');
    const preflight = await onRunHost(run, session, (onHost, at) =>
      workspaceActivities.runPreflight.executeWithOptions(onHost, [
        {
          worktreePath: at.worktreePath,
          completionSteps: Object.values(definition.completionSteps),
          validators: definition.validators,
        },
      ]),
    );
    session.noteGitRestored('preflight', preflight.gitRestored);
    const verdict = acceptance(preflight, proposal.test);
    if (!verdict.accepted) return verdict;
    session.noteEnvironment(preflightLines(preflight));
    return { accepted: true, preflight };
  } catch (err) {
    const info = failureInfo(err);
    if (info.cancelled || info.type !== FailureType.EnvironmentFailed) throw err;
    return { accepted: false, reason: info.message };
  }
}
