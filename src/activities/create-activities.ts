/**
 * createActivities(deps): every activity of the run workflow, each a thin wrapper
 * over a layer's function, with AgentErrors converted to typed failures at the edge
 * and long ones heartbeating (so cancellation and dead workers are noticed).
 */
import path from 'node:path';
import { Context, log } from '@temporalio/activity';
import type { RunActivities } from '../contracts/activities.js';
import { resolveC3lPrompt } from '../definition/c3l/resolve-c3l-prompt.js';
import { checkExternalState } from './deliver/local-boundary-hook.js';
import { runBoundaryHook } from './deliver/run-boundary-hook.js';
import { withSetupAdvice } from './deliver/setup-advice.js';
import { reportNoChange } from './deliver/report-no-change.js';
import { runQueryStep, type QueryStepOutcome } from './model/query-step.js';
import { githubToolFor } from './tools/github-tool-deps.js';
import { runRemoteBoundaryHook } from './deliver/remote-boundary-hook.js';
import { isRepoUrl } from '../contracts/repo-url.js';
import { createRemoteRuns } from './workspace/remote/remote-runs.js';
import { createRemoteGit } from './workspace/remote/remote-git.js';
import { stateDirFromEnv } from './workspace/remote/repo-cache-layout.js';
import { prepareWorkspace } from './workspace/prepare-workspace.js';
import { restoreGitState } from './workspace/git/git-state-guard.js';
import { buildRetryPrompt } from './conditions/retry-prompt/build-retry-prompt.js';
import { runValidators } from './conditions/run-validators.js';
import { runPreflight } from './preflight/run-preflight.js';
import { createEnvironmentActivities } from './environment/create-environment-activities.js';
import { createAgentSetupActivities } from './environment/agent-setup-activities.js';
import { environmentForRun } from './environment/environment-for-run.js';
import { prepareEnvironmentAndPreflight } from './prepare-environment-and-preflight.js';
import { createArtifactStore, validatorArtifactDir } from './artifacts/artifact-store.js';
import { evaluateCustomVerdict } from './completion/custom-verdict.js';
import { runStepRunner } from './runner/run-step-runner.js';
import { createStepInputCache, toQueryStepRequest } from './step/step-request.js';
import { createDefinitionSnapshots, createSnapshotStore } from './definition-snapshot/definition-snapshots.js';
import type { ActivityDeps } from './deps.js';
import { withHeartbeat } from './edge/heartbeat.js';
import { redactDeep, redactorForEnv } from './edge/secret-redactor.js';
import { edgeWith } from './edge/to-failure.js';
import {
  alignWorktree,
  withWorktreeCheckpoint,
  type CheckpointLog,
} from './workspace/checkpoints/worktree-checkpoints.js';
import { readOptional } from '../definition/load/read-optional.js';

const checkpointLog =
  (redact: (text: string) => string): CheckpointLog =>
  (level, message, data) =>
    log[level](redact(message), redactDeep(data ?? {}, redact));

/**
 * Runs `work` (a step or the validators: both run code the agent controls), then puts
 * the repository's git config and hooks back to their pre-run snapshot, even when the
 * work failed. Restored paths are logged and returned with the result.
 */
async function guarded<T extends { readonly gitRestored?: readonly string[] }>(
  worktreePath: string,
  work: () => Promise<T>,
  ranNothing: (result: T) => boolean = () => false,
): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (err) {
    await restoreGitState(worktreePath).catch(() => undefined);
    throw err;
  }
  if (ranNothing(result)) return result;
  const report = await restoreGitState(worktreePath);
  if (report.restored.length === 0) return result;
  log.warn('the agent changed the repository git config or hooks; restored them', { restored: report.restored });
  return { ...result, gitRestored: [...report.restored] };
}

export function createActivities(deps: ActivityDeps): RunActivities {
  const redact = deps.redact ?? redactorForEnv(process.env);
  const edge = edgeWith(redact);
  const stepInputs = createStepInputCache();
  const stateDir = deps.stateDir ?? stateDirFromEnv();
  const snapshots =
    deps.snapshots ?? createDefinitionSnapshots(createSnapshotStore(path.join(stateDir, 'definitions')));
  // Runs on a remote repository (repoPath a git URL): this worker's clone, checkpoint pushes.
  const remote = createRemoteRuns({
    remoteGit: createRemoteGit(deps.boundary?.env ?? process.env),
    stateDir,
    issueSource: deps.issueSource,
  });
  const environment = createEnvironmentActivities({
    log: (line) => log.info(redact(line)),
    signal: () => Context.current().cancellationSignal,
    heartbeat: () => (detail) => Context.current().heartbeat(detail),
  });
  const agentSetup = createAgentSetupActivities(deps, redact, (dir) => remote.artifactsDir(dir));
  const activities: Omit<RunActivities, 'prepareEnvironmentAndPreflight'> = {
    writeEnvironmentSetup: edge(agentSetup.writeEnvironmentSetup),
    keepEnvironmentSetup: edge(agentSetup.keepEnvironmentSetup),
    // The definition is a snapshot: loaded once, copied into the store, read only from there.
    loadDefinition: edge(async (input) => snapshots.load(input)),
    resolvePrompt: edge(async (input) => resolveC3lPrompt(await snapshots.prompt(input))),
    buildRetryPrompt: edge(async (input) => buildRetryPrompt({ readFile: readOptional }, await snapshots.retry(input))),
    prepareWorkspace: edge(async (input) => {
      const { workflowExecution, activityId } = Context.current().info;
      const prepared = isRepoUrl(input.repoPath)
        ? await remote.prepareWorkspace(input, {
            workflowId: workflowExecution?.workflowId ?? `issue-${input.issue}`,
            runId: workflowExecution?.runId ?? activityId,
            activityId,
          })
        : await prepareWorkspace({ issueSource: deps.issueSource }, input);
      return deps.hostTaskQueue === undefined ? prepared : { ...prepared, hostTaskQueue: deps.hostTaskQueue };
    }),
    queryStep: edge(async (raw) => {
      const input = { ...raw, artifactsDir: remote.artifactsDir(raw.artifactsDir) };
      const request = await toQueryStepRequest(await snapshots.query(input), stepInputs);
      // The github tool reads the repository's GitHub identity from this host's checkout (a remote run's clone).
      const tools =
        input.tools?.github === undefined
          ? input.tools
          : { ...input.tools, repoPath: await remote.repoPathOnHost(input.tools.repoPath) };
      const { workflowExecution, activityId } = Context.current().info;
      const scope = { runId: workflowExecution?.runId ?? request.workflowId, activityId };
      const label = `${input.stepId} · iteration ${input.iteration}`;
      // Neither a tool nor, on a first attempt, an earlier attempt ran code in the worktree:
      // no guard pass and no new checkpoint are needed (a retry always does both).
      const ranNothing = (result: { readonly toolsUsed: readonly string[] }): boolean =>
        Context.current().info.attempt === 1 && result.toolsUsed.length === 0;
      // What the tools wrote, on a first attempt only (an earlier attempt's tools are not in the record).
      const wrote = (result: QueryStepOutcome): readonly string[] | undefined =>
        Context.current().info.attempt === 1 ? result.changedPaths : undefined;
      const { changedPaths: _wrote, ...output } = await withWorktreeCheckpoint({
        worktreePath: input.worktreePath,
        request: input.checkpoint,
        scope,
        label,
        log: checkpointLog(redact),
        work: () =>
          guarded(
            input.worktreePath,
            () =>
              withHeartbeat((hb) =>
                runQueryStep(
                  {
                    llm: deps.llm(),
                    bashEnv: deps.bashEnv,
                    ...githubToolFor(deps, tools, redact),
                    keepAliveMs: hb.intervalMs,
                    redact,
                    log: (level, message, data) => log[level](redact(message), redactDeep(data ?? {}, redact)),
                  },
                  request,
                  {
                    heartbeat: (details) => hb.beat(details),
                    signal: hb.signal,
                    scope: `${workflowExecution?.runId ?? request.workflowId}/${activityId}`,
                    ...(hb.previous === undefined ? {} : { resumeFrom: hb.previous }),
                  },
                ),
              ),
            ranNothing,
          ),
        changedNothing: ranNothing,
        changedPaths: wrote,
      });
      // The record is for the checkpoint only; the step's result in history stays as it was.
      return remote.publishStep(input.worktreePath, input.checkpoint, output);
    }),
    runValidators: edge(async (input) => {
      if (input.checkpoint !== undefined) {
        const { workflowExecution, activityId } = Context.current().info;
        const scope = { runId: workflowExecution?.runId ?? input.worktreePath, activityId };
        await alignWorktree(input.worktreePath, input.checkpoint, scope, checkpointLog(redact), { inStep: false });
      }
      return guarded(input.worktreePath, () =>
        withHeartbeat((hb) => {
          const store =
            input.artifactsDir === undefined || input.workflowId === undefined
              ? undefined
              : createArtifactStore(
                  validatorArtifactDir(
                    remote.artifactsDir(input.artifactsDir),
                    input.workflowId,
                    input.completionStep.stepId,
                  ),
                  { redact },
                );
          const saveOutput = store === undefined ? {} : { saveOutput: (text: string) => store.put('validator', text) };
          return runValidators({ commands: deps.commands, signal: hb.signal, ...saveOutput }, input);
        }),
      );
    }),
    // Setup runs the repository's own install at the base commit (networked, no secret, outside
    // the sandbox, as a user's `npm ci` would); the git-state guard still puts back any hook it planted.
    prepareEnvironment: edge(async (raw) => {
      const input = { ...raw, repoPath: await remote.repoPathOnHost(raw.repoPath) };
      return guarded(input.worktreePath, async () => environmentForRun(environment.prepareEnvironment, input));
    }),
    // The repository's own commands on the base: like validators, they run code from the worktree.
    runPreflight: edge(async (input) =>
      guarded(input.worktreePath, () =>
        withHeartbeat((hb) => runPreflight({ commands: deps.commands, signal: hb.signal }, input)),
      ),
    ),
    runBoundaryHook: edge(async (sent) => {
      const input = withSetupAdvice(sent);
      return withHeartbeat(async () =>
        isRepoUrl(input.repoPath)
          ? runRemoteBoundaryHook(
              { ...deps.boundary, remoteGit: remote.remoteGit },
              { ...input, repoPath: await remote.repoPathOnHost(input.repoPath) },
              input.repoPath,
            )
          : runBoundaryHook(deps.boundary, input),
      );
    }),
    reportNoChange: edge(async (input) =>
      reportNoChange(
        { issueSource: deps.issueSource, redact },
        { ...input, repoPath: await remote.repoPathOnHost(input.repoPath) },
      ),
    ),
    checkExternalState: edge(async (input) =>
      checkExternalState(
        { issueSource: deps.issueSource },
        { ...input, repoPath: await remote.repoPathOnHost(input.repoPath, { fetch: true }) },
      ),
    ),
    evaluateCustomVerdict: edge(async (input) => evaluateCustomVerdict(await snapshots.custom(input))),
    runStepRunner: edge(async (input) => {
      const { workflowExecution, activityId } = Context.current().info;
      const scope = { runId: workflowExecution?.runId ?? input.stepId, activityId };
      const stepped = await withWorktreeCheckpoint({
        worktreePath: input.worktreePath,
        request: input.checkpoint,
        scope,
        label: `${input.stepId} · runner`,
        log: checkpointLog(redact),
        work: () => withHeartbeat((hb) => runStepRunner({ commands: deps.commands, signal: hb.signal }, input)),
      });
      return remote.publishStep(input.worktreePath, input.checkpoint, stepped);
    }),
  };
  return { ...activities, prepareEnvironmentAndPreflight: edge(prepareEnvironmentAndPreflight(activities)) };
}
