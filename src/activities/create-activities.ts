/**
 * createActivities(deps): every activity of the run workflow, each a thin wrapper
 * over a layer's function, with AgentErrors converted to typed failures at the edge
 * and long ones heartbeating (so cancellation and dead workers are noticed).
 */
import { readFile } from 'node:fs/promises';
import { log } from '@temporalio/activity';
import type { RunActivities } from '../contracts/activities.js';
import { loadAgentDefinitionOrThrow } from '../definition/load/load-agent-definition.js';
import { resolveC3lPrompt } from '../definition/c3l/resolve-c3l-prompt.js';
import { checkExternalState } from './deliver/local-boundary-hook.js';
import { runBoundaryHook } from './deliver/run-boundary-hook.js';
import { runStepQuery } from './model/step-query.js';
import { prepareWorkspace } from './workspace/prepare-workspace.js';
import { buildRetryPrompt } from './validate/retry/build-retry-prompt.js';
import { runValidators } from './validate/run-validators.js';
import { evaluateCustomVerdict } from './custom-verdict.js';
import { runStepRunner } from './runner/run-step-runner.js';
import { resolveSchemaDigest, toStepQueryRequest } from './step-request.js';
import type { ActivityDeps } from './deps.js';
import { withHeartbeat } from './heartbeat.js';
import { atEdge } from './to-failure.js';

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function createActivities(deps: ActivityDeps): RunActivities {
  return {
    loadDefinition: atEdge(async ({ agentDir }) => loadAgentDefinitionOrThrow(agentDir)),
    resolvePrompt: atEdge(async (input) => resolveC3lPrompt(input)),
    resolveSchema: atEdge(async (input) => resolveSchemaDigest(input)),
    buildRetryPrompt: atEdge(async (input) => buildRetryPrompt({ readFile: readOptional }, input)),
    prepareWorkspace: atEdge(async (input) => {
      const prepared = await prepareWorkspace({ issueSource: deps.issueSource }, input);
      return deps.hostTaskQueue === undefined ? prepared : { ...prepared, hostTaskQueue: deps.hostTaskQueue };
    }),
    queryStep: atEdge(async (input) => {
      const request = await toStepQueryRequest(input);
      return withHeartbeat((hb) =>
        runStepQuery(
          {
            llm: deps.llm(),
            bashEnv: deps.bashEnv,
            keepAliveMs: hb.intervalMs,
            log: (level, message, data) => log[level](message, data ?? {}),
          },
          request,
          {
            heartbeat: (details) => hb.beat(details),
            signal: hb.signal,
            ...(hb.previous === undefined ? {} : { resumeFrom: hb.previous }),
          },
        ),
      );
    }),
    runValidators: atEdge(async (input) =>
      withHeartbeat((hb) => runValidators({ commands: deps.commands, signal: hb.signal }, input)),
    ),
    runBoundaryHook: atEdge(async (input) => withHeartbeat(() => runBoundaryHook(deps.boundary, input))),
    checkExternalState: atEdge(async (input) => checkExternalState({ issueSource: deps.issueSource }, input)),
    evaluateCustomVerdict: atEdge(async (input) => evaluateCustomVerdict(input)),
    runStepRunner: atEdge(async (input) =>
      withHeartbeat((hb) => runStepRunner({ commands: deps.commands, signal: hb.signal }, input)),
    ),
  };
}
