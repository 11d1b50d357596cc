/**
 * The environment phase, before the first model call (seed 000 keeps model calls for
 * work; a broken environment must not be found after every model call was paid for):
 *
 * 1. `prepareEnvironment` installs what the repository's commands need into the run's
 *    worktree (commands.setup, else detected per ecosystem), with the network and no
 *    secret, cached across runs;
 * 2. `runPreflight` runs each command validator once on the prepared base commit, in the
 *    sandbox: a command that cannot run ends the run as ENVIRONMENT_FAILED, failing tests
 *    become the named baseline.
 *
 * Both are durable steps of their own (phases `environment` and `preflight` in progress,
 * the Web UI and the search attribute).
 *
 * 3. Where the preflight finds the detected test command cannot run and the run allows it,
 *    the agent-written setup takes over (agent-setup-phase.ts) and may replace the test
 *    command the run is judged by: the definition the run goes on with is returned.
 */
import type { AgentDefinition } from '../../contracts/definition.js';
import type { EnvironmentReport } from '../../contracts/environment.js';
import type { PreflightReport } from '../../contracts/preflight.js';
import { environmentActivities, workspaceActivities } from '../run/activity-proxies.js';
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
  const environment: EnvironmentReport = await onRunHost(run, session, (onHost, at) =>
    environmentActivities.prepareEnvironment.executeWithOptions(onHost, [
      {
        worktreePath: at.worktreePath,
        repoPath: session.input.repoPath,
        ...(session.input.setup === undefined ? {} : { setup: session.input.setup }),
      },
    ]),
  );
  session.noteGitRestored('environment setup', environment.gitRestored);
  session.noteEnvironment(environmentLines(environment));
  session.setPhase('preflight');
  let preflight: PreflightReport;
  try {
    preflight = await onRunHost(run, session, (onHost, at) =>
      workspaceActivities.runPreflight.executeWithOptions(onHost, [
        {
          worktreePath: at.worktreePath,
          completionSteps: Object.values(definition.completionSteps),
          validators: definition.validators,
        },
      ]),
    );
  } catch (err) {
    // Where detection ends: the model may write the setup (agent-setup-phase.ts).
    const trigger = agentSetupTrigger(session.input.agentSetup, failureInfo(err));
    if (trigger === undefined) throw err;
    return (await runAgentSetup(session, definition, environment.detected, trigger)).definition;
  }
  session.noteGitRestored('preflight', preflight.gitRestored);
  session.noteEnvironment(preflightLines(preflight));
  return definition;
}
