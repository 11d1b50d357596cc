/**
 * The environment plan of a worktree: `commands.setup` of `.agent/config.json` when
 * given (run in order, replacing detection), else the setups of the registry's
 * ecosystems found in the worktree's files (registry-setup.ts; several may apply). Every
 * choice carries a one-line reason, as detect-commands does for the test command.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { Ecosystem } from '../../contracts/environment.js';
import type { CacheLayout, WorktreeLayout } from './cache-layout.js';
import type { PlannedStep } from './planned-step.js';
import { ALL_CACHE_OWNERS } from './setup-scope.js';
import { ECOSYSTEMS, NOTHING_DETECTED } from '../../definition/ecosystems/ecosystem-registry.js';
import type { PythonTools } from '../../definition/ecosystems/ecosystem.js';
import { configuredSandboxViews, planRegistrySetups, type RegistrySetups } from './registry-setup.js';

/** What setup runs and what the sandbox then gets: a configured setup's, or the registry's setups. */
export type EnvironmentPlan = RegistrySetups;

/** The manifests and lockfiles a configured setup is keyed by, in registry order. */
const SETUP_INPUTS = ECOSYSTEMS.flatMap((ecosystem) => ecosystem.setupInputs);

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

export async function planConfigured(
  dir: string,
  commands: readonly string[],
  caches: CacheLayout,
): Promise<EnvironmentPlan> {
  const inputs: string[] = [];
  for (const name of SETUP_INPUTS) if (await exists(path.join(dir, name))) inputs.push(name);
  const steps = commands.map((command, i): PlannedStep => ({
    id: `setup-${i}`,
    ecosystem: Ecosystem.Configured,
    command,
    reason: `.agent/config.json commands.setup[${i}]: ${command}`,
    inputs,
    caches: [`shared caches under ${caches.root}`],
    owners: ALL_CACHE_OWNERS,
  }));
  return {
    detected: [`setup: ${commands.length} command(s) from .agent/config.json commands.setup (detection skipped)`],
    steps,
    tools: [],
    buildCacheSeeds: [],
    pythonApps: [],
    sandboxViews: await configuredSandboxViews(dir, caches),
  };
}

export async function planDetected(options: {
  readonly dir: string;
  readonly caches: CacheLayout;
  readonly worktree: WorktreeLayout;
  readonly python: PythonTools;
}): Promise<EnvironmentPlan> {
  const plan = await planRegistrySetups(options);
  return plan.detected.length > 0 ? plan : { ...plan, detected: [NOTHING_DETECTED] };
}
