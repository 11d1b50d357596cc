/**
 * The environment phase, before the first model call (model calls are for the work; a
 * broken environment must not be found after every model call was paid for):
 *
 * 1. `prepareEnvironment` installs what the repository's commands need into the run's
 *    worktree (commands.setup, else detected per ecosystem), with the network and no
 *    secret, cached across runs;
 * 2. `runPreflight` runs each command validator once on the prepared base commit, in the
 *    sandbox: a command that cannot run ends the run as ENVIRONMENT_FAILED, failing tests
 *    become the named baseline.
 *
 * Both run in one activity call on the run's host (contracts/environment-and-preflight.ts):
 * they always ran back to back there, and two calls cost a round trip more. The phase
 * (progress, the Web UI and the search attribute) is `environment` for both.
 *
 * 3. Where the preflight finds the detected test command cannot run and the run allows it,
 *    the agent-written setup takes over (agent-setup-phase.ts) and may replace the test
 *    command the run is judged by: the definition the run goes on with is returned.
 */
import type { AgentDefinition } from '../../contracts/definition.js';
import { ApplicationFailure } from '@temporalio/workflow';
import { environmentPhaseActivities } from '../run/activity-proxies.js';
import { onRunHost } from '../hosting/run-host.js';
import type { RunSession } from '../run/state/run-session.js';
import { failureInfo } from '../run/failure-info.js';
import { agentSetupTrigger } from './agent-setup-decision.js';
import { runAgentSetup } from './agent-setup-phase.js';
import { environmentLines, preflightLines } from './environment-lines.js';

/** The definition the run goes on with: the agent-written setup may have replaced the test command. */
export async function runEnvironmentPhase(session: RunSession, definition: AgentDefinition): Promise<AgentDefinition> {
  const run = { input: session.input, definition };
  session.setPhase('environment');
  const { environment, preflight, stopped } = await onRunHost(run, session, (onHost, at) =>
    environmentPhaseActivities.prepareEnvironmentAndPreflight.executeWithOptions(onHost, [
      {
        environment: {
          worktreePath: at.worktreePath,
          repoPath: session.input.repoPath,
          ...(session.input.setup === undefined ? {} : { setup: session.input.setup }),
        },
        preflight: {
          worktreePath: at.worktreePath,
          completionSteps: Object.values(definition.completionSteps),
          validators: definition.validators,
        },
      },
    ]),
  );
  session.noteGitRestored('environment setup', environment.gitRestored);
  session.noteEnvironment(environmentLines(environment));
  if (stopped !== undefined) {
    // The preflight's own failure, raised here as it was thrown there.
    const failure = ApplicationFailure.create({ ...stopped, details: [...stopped.details], nonRetryable: true });
    // Where detection ends: the model may write the setup (agent-setup-phase.ts).
    const trigger = agentSetupTrigger(session.input.agentSetup, failureInfo(failure));
    if (trigger === undefined) throw failure;
    return (await runAgentSetup(session, definition, environment.detected, trigger)).definition;
  }
  session.noteGitRestored('preflight', preflight.gitRestored);
  session.noteEnvironment(preflightLines(preflight));
  return definition;
}
