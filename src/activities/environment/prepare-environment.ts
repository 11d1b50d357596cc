/**
 * The environment phase of a run, before the first model call: plan (commands.setup,
 * else detection), fetch missing package managers, run each step in the worktree in the
 * agent's sandbox with the network, a scrubbed environment (setup-env) and the shared
 * package caches writable (sandboxed-setup-runner), then persist what later commands need
 * (environment-file). Idempotent: a retry skips steps whose stamp and output are there.
 */
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import {
  SetupStepStatus,
  type EnvironmentReport,
  type PrepareEnvironmentInput,
  type SetupStepReport,
} from '../../contracts/environment.js';
import { setupCommandsOf } from '../../contracts/repo-config.js';
import { readRepoConfig } from '../../definition/repo-config/read-repo-config.js';
import { EcosystemId } from '../../definition/ecosystems/ecosystem.js';
import { ensureAgentHome } from '../workspace/sandbox-state.js';
import { assertAtBaseCommit } from './base-commit-guard.js';
import { excludeSetupLeftovers, setupLeftovers, untrackedEntries } from './setup-leftovers.js';
import { excludeBuildOutputs } from './build-outputs.js';
import { cacheLayout, worktreeLayout, type CacheLayout, type WorktreeLayout } from './cache-layout.js';
import { repositoryIdentity } from './repository-identity.js';
import { planConfigured, planDetected, type EnvironmentPlan } from './detect-setup.js';
import { asAgentWritten } from './agent-written-plan.js';
import { pythonBasePrefix } from './python-base.js';
import { writeEnvironmentReport } from './environment-file.js';
import { seedGoCache } from './go-cache-seed.js';
import { ensureTool } from './package-manager-tool.js';
import type { PlannedStep } from './planned-step.js';
import { sandboxEnvironment } from './sandbox-environment.js';
import { installedDependencies } from './installed-dependencies.js';
import { lastLines, setupFailure } from './setup-failure.js';
import { setupEnv, setupTmpDir } from './setup-env.js';
import { NO_CACHE_OWNERS, scopedSetupRunner, setupScope, type CacheOwners } from './setup-scope.js';
import { setupHost } from './setup-host.js';
import type { CommandRunner } from '../process/command-runner.js';
import { createSandboxedSetupRunner } from './sandboxed-setup-runner.js';
import { hasStamp, stepKeys, writeStamp } from './step-stamps.js';
import { nodeModulesSnapshotFor, restoreNodeModules, saveNodeModules } from './node-modules-snapshot.js';

export interface PrepareEnvironmentDeps {
  readonly runner: CommandRunner;
  /** Runs the commands of an agent-written setup (default: in the sandbox, with the network). */
  readonly agentRunner?: CommandRunner;
  /** The worker's environment (default process.env): the source of the scrubbed setup env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly log?: (line: string) => void;
  readonly signal?: AbortSignal;
  readonly heartbeat?: (detail: string) => void; // at each step and every 10 s while one runs
}

const DEFAULT_COMMAND_TIMEOUT_MS = 15 * 60_000;

async function runStep(options: {
  readonly deps: PrepareEnvironmentDeps;
  readonly step: PlannedStep;
  readonly input: PrepareEnvironmentInput;
  /** The setup environment with these owners' caches shared (setup-scope.ts). */
  readonly envFor: (owners: CacheOwners) => Readonly<Record<string, string>>;
  readonly stamps: { readonly worktree: string; readonly shared: string };
  readonly timeoutMs: number;
  readonly caches: CacheLayout;
  readonly worktree: WorktreeLayout;
}): Promise<SetupStepReport> {
  const { deps, step, input } = options;
  const env = options.envFor(step.owners);
  const keys = await stepKeys(input.worktreePath, step);
  const cacheHit = step.caches.length > 0 && (await hasStamp(options.stamps.shared, keys.shared));
  const reused = cacheHit ? step.caches.map((c) => `${c} (this repository and lockfile)`) : [];
  const base = { ecosystem: step.ecosystem, command: step.command, reason: step.reason };
  const produced = step.produces === undefined || existsSync(step.produces);
  const done = produced && (await hasStamp(options.stamps.worktree, keys.worktree));
  if (done || (cacheHit && step.cacheOnly === true)) {
    const what = done ? ['done earlier in this worktree'] : reused;
    return { ...base, status: SetupStepStatus.Skipped, cacheHit: true, reused: what, durationMs: 0 };
  }
  // A warm setup of the same lockfile is a copy of the first install's node_modules.
  const snapshot =
    step.snapshot === true
      ? await nodeModulesSnapshotFor({
          step,
          runner: deps.runner,
          env,
          worktreePath: input.worktreePath,
          caches: options.caches,
          sharedKey: keys.shared,
        })
      : undefined;
  if (snapshot !== undefined && step.produces !== undefined) {
    const started = Date.now();
    if (await restoreNodeModules(snapshot, step.produces)) {
      deps.log?.(`[environment] node_modules copied from the snapshot of this lockfile (${snapshot})`);
      await writeStamp(options.stamps.worktree, keys.worktree, step);
      const reused = [`node_modules snapshot ${snapshot} (this lockfile and Node version)`];
      return { ...base, status: SetupStepStatus.Restored, cacheHit: true, reused, durationMs: Date.now() - started };
    }
  }
  deps.log?.(`[environment] ${step.command}`);
  const { caches, worktree } = options;
  const result = await deps.runner.run({
    command: step.command,
    cwd: input.worktreePath,
    env,
    ...setupScope({ owners: step.owners, installsTool: step.installsTool === true, caches, worktree }),
    timeoutMs: options.timeoutMs,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  if (result.exitCode !== 0) {
    if (!step.optional)
      throw setupFailure({ step, result, timeoutMs: options.timeoutMs, worktreePath: input.worktreePath });
    const note = lastLines(result.all, 5);
    return { ...base, status: SetupStepStatus.FailedOptional, cacheHit, reused, durationMs: result.durationMs, note };
  }
  await writeStamp(options.stamps.worktree, keys.worktree, step);
  if (step.caches.length > 0) await writeStamp(options.stamps.shared, keys.shared, step);
  if (snapshot !== undefined && step.produces !== undefined && (await saveNodeModules(step.produces, snapshot)))
    deps.log?.(`[environment] node_modules saved as the snapshot of this lockfile (${snapshot})`);
  return { ...base, status: SetupStepStatus.Ran, cacheHit, reused, durationMs: result.durationMs };
}

async function plan(
  input: PrepareEnvironmentInput,
  caches: ReturnType<typeof cacheLayout>,
  env: Readonly<Record<string, string | undefined>>,
  probe: CommandRunner,
  probeEnv: Readonly<Record<string, string>>,
): Promise<EnvironmentPlan> {
  const configured = input.setup ?? setupCommandsOf((await readRepoConfig(input.worktreePath))?.commands);
  if (configured !== undefined && configured.length > 0) {
    const planned = await planConfigured(input.worktreePath, configured, caches);
    return input.agentWritten === true ? asAgentWritten(planned) : planned;
  }
  return planDetected({
    dir: input.worktreePath,
    caches,
    worktree: worktreeLayout(input.worktreePath, env),
    python: await setupHost({ env, probe, probeEnv, cwd: input.worktreePath }),
  });
}

export async function prepareEnvironment(
  given: PrepareEnvironmentDeps,
  input: PrepareEnvironmentInput,
): Promise<EnvironmentReport> {
  const started = Date.now();
  const source = given.env ?? process.env;
  const timeoutMs = input.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const caches = cacheLayout(await repositoryIdentity(input.repoPath), source);
  const worktree = worktreeLayout(input.worktreePath, source);
  if (input.baseCommit !== undefined) await assertAtBaseCommit(input.worktreePath, input.baseCommit);
  await ensureAgentHome(input.worktreePath);
  for (const dir of [caches.root, caches.stamps, worktree.setupHome, setupTmpDir(worktree), worktree.stamps])
    await mkdir(dir, { recursive: true, mode: 0o700 });
  const deps = { ...given, runner: scopedSetupRunner(given.runner, caches, worktree) };
  const toolEnv = setupEnv({ source, caches, worktree, pathPrepend: [], owners: [EcosystemId.Node] });
  const thePlan = await plan(input, caches, source, deps.runner, toolEnv);
  for (const line of thePlan.detected) deps.log?.(`[environment] ${line}`);
  const steps: SetupStepReport[] = [];
  const toolBins: string[] = [];
  const toolPrefixes: string[] = [];
  for (const request of thePlan.tools) {
    const tool = await ensureTool({
      request,
      caches,
      worktree,
      runner: deps.runner,
      env: toolEnv,
      cwd: input.worktreePath,
      timeoutMs,
    });
    steps.push(tool.report);
    if (tool.binDir) toolBins.push(tool.binDir);
    if (tool.prefix) toolPrefixes.push(tool.prefix);
  }
  toolBins.push(...thePlan.pythonApps.map((app) => app.binDir));
  toolPrefixes.push(...thePlan.pythonApps.map((app) => app.prefix));
  const envFor = (owners: CacheOwners) => setupEnv({ source, caches, worktree, pathPrepend: toolBins, owners });
  const env = envFor(NO_CACHE_OWNERS);
  const stamps = { worktree: worktree.stamps, shared: caches.stamps };
  const stepDeps =
    input.agentWritten === true ? { ...deps, runner: deps.agentRunner ?? createSandboxedSetupRunner() } : deps;
  // Steps that use a shared cache (tools, installs, the GOCACHE seed): all warm = cached.
  const cacheUsers: SetupStepReport[] = [...steps];
  const untrackedBefore = await untrackedEntries(input.worktreePath);
  for (const step of thePlan.steps) {
    deps.heartbeat?.(step.command);
    const report = await runStep({ deps: stepDeps, step, input, envFor, stamps, timeoutMs, caches, worktree });
    steps.push(report);
    if (step.caches.length > 0) cacheUsers.push(report);
  }
  const basePython = thePlan.interpreter ?? thePlan.pythonApps[0]?.python;
  const pythonBase =
    basePython === undefined
      ? undefined
      : await pythonBasePrefix({ runner: deps.runner, python: basePython, cwd: input.worktreePath, env });
  for (const seedOf of thePlan.buildCacheSeeds) {
    await mkdir(seedOf.shared, { recursive: true });
    const seed = await seedGoCache({ ...seedOf, runner: deps.runner, env, cwd: input.worktreePath });
    steps.push(seed);
    cacheUsers.push(seed);
  }
  const sandbox = {
    ...sandboxEnvironment({
      plan: thePlan,
      toolBins,
      toolPrefixes,
      ...(pythonBase === undefined ? {} : { pythonBase }),
      setupEnv: env,
    }),
    installed: await installedDependencies(input.worktreePath),
  };
  const ran = steps.some((s) => s.status === SetupStepStatus.Ran || s.status === SetupStepStatus.FailedOptional);
  const keptOut = input.agentWritten === true ? [] : await excludeSetupLeftovers(input.worktreePath, untrackedBefore);
  const buildOutputs = await excludeBuildOutputs(input.worktreePath);
  const leftovers =
    ran || keptOut.length > 0 || buildOutputs.length > 0
      ? await setupLeftovers(input.worktreePath, keptOut, buildOutputs)
      : [];
  const report: EnvironmentReport = {
    version: 1,
    worktreePath: input.worktreePath,
    detected: thePlan.detected,
    steps,
    cached: cacheUsers.length > 0 && cacheUsers.every((s) => s.cacheHit),
    sandbox,
    warnings: leftovers,
    ...(leftovers.length > 0 ? { repositoryAdvice: leftovers } : {}),
    durationMs: Date.now() - started,
  };
  await writeEnvironmentReport(report);
  return report;
}
