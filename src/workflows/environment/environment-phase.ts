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
 */
import type { AgentDefinition } from '../../contracts/definition.js';
import type { EnvironmentReport } from '../../contracts/environment.js';
import type { PreflightReport } from '../../contracts/preflight.js';
import { environmentActivities, workspaceActivities } from '../run/activity-proxies.js';
import { onRunHost } from '../hosting/run-host.js';
import type { RunSession } from '../run/state/run-session.js';
import { environmentLines, preflightLines } from './environment-lines.js';

export async function runEnvironmentPhase(session: RunSession, definition: AgentDefinition): Promise<void> {
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
  const preflight: PreflightReport = await onRunHost(run, session, (onHost, at) =>
    workspaceActivities.runPreflight.executeWithOptions(onHost, [
      {
        worktreePath: at.worktreePath,
        completionSteps: Object.values(definition.completionSteps),
        validators: definition.validators,
      },
    ]),
  );
  session.noteGitRestored('preflight', preflight.gitRestored);
  session.noteEnvironment(preflightLines(preflight));
}
