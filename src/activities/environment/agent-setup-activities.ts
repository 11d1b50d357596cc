/**
 * The agent-written setup's two activities (contracts/agent-setup.ts): the model step
 * that proposes the commands, and keeping an accepted proposal in the cache. Running the
 * proposal is not here: the workflow hands it to prepareEnvironment and runPreflight,
 * the activities every run's setup goes through, so it meets the same rules.
 */
import { Context, log } from '@temporalio/activity';
import type {
  KeepEnvironmentSetupInput,
  WriteEnvironmentSetupInput,
  WriteEnvironmentSetupOutput,
} from '../../contracts/agent-setup.js';
import type { ActivityDeps } from '../deps.js';
import { withHeartbeat } from '../edge/heartbeat.js';
import { redactDeep, type Redact } from '../edge/secret-redactor.js';
import { keepSetup } from './agent-setup-cache.js';
import { writeEnvironmentSetup } from './agent-setup-step.js';

export interface AgentSetupActivities {
  writeEnvironmentSetup(input: WriteEnvironmentSetupInput): Promise<WriteEnvironmentSetupOutput>;
  keepEnvironmentSetup(input: KeepEnvironmentSetupInput): Promise<void>;
}

export function createAgentSetupActivities(
  deps: Pick<ActivityDeps, 'llm' | 'bashEnv'>,
  redact: Redact,
  /** A remote run's artifacts dir on this host (remote-runs.ts). */
  artifactsDir: (dir: string) => string,
): AgentSetupActivities {
  return {
    writeEnvironmentSetup: async (raw) => {
      const input = { ...raw, artifactsDir: artifactsDir(raw.artifactsDir) };
      const { workflowExecution, activityId } = Context.current().info;
      return withHeartbeat((hb) =>
        writeEnvironmentSetup(
          {
            llm: deps.llm(),
            bashEnv: deps.bashEnv,
            keepAliveMs: hb.intervalMs,
            redact,
            log: (level, message, data) => log[level](redact(message), redactDeep(data ?? {}, redact)),
          },
          input,
          {
            heartbeat: (details) => hb.beat(details),
            signal: hb.signal,
            scope: `${workflowExecution?.runId ?? input.workflowId}/${activityId}`,
            ...(hb.previous === undefined ? {} : { resumeFrom: hb.previous }),
          },
        ),
      );
    },
    keepEnvironmentSetup: async (input) => keepSetup(input.worktreePath, input.proposal),
  };
}
