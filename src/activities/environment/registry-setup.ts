/**
 * The setups ecosystems of the registry plan themselves (EcosystemModule.setup): each
 * one's pinned Python application is fetched from PyPI into the shared tools dir
 * (`<tools>/<name>-<version>`, a venv of its own, the way PDM and Poetry are), then its
 * steps run with that application on PATH. The sandbox later gets the application's bin
 * on PATH, its prefix and base interpreter read-only, and each ecosystem's own view
 * (sandbox-environment.ts).
 */
import path from 'node:path';
import { Ecosystem } from '../../contracts/environment.js';
import { ECOSYSTEMS_IN_SETUP_ORDER } from '../../definition/ecosystems/ecosystem-registry.js';
import type { EcosystemModule, EcosystemSetup, PythonApp, SandboxView } from '../../definition/ecosystems/ecosystem.js';
import type { CacheLayout, WorktreeLayout } from './cache-layout.js';
import { q, type PlannedStep } from './planned-step.js';
import { venvAppCommand } from './python-tool.js';

export interface FetchedPythonApp {
  /** Holds the program alone: first on PATH for setup and in the sandbox. */
  readonly binDir: string;
  /** The app's venv, read-only in the sandbox. */
  readonly prefix: string;
  /** The venv's interpreter, asked for its base prefix (the sandbox must see it too). */
  readonly python: string;
}

export interface RegistrySetups {
  readonly detected: readonly string[];
  readonly steps: readonly PlannedStep[];
  readonly pythonApps: readonly FetchedPythonApp[];
  /** What the sandbox gets of each ecosystem set up, in registry order. */
  readonly sandboxViews: readonly SandboxView[];
  /** Build caches to copy for the worktree once the steps ran. */
  readonly buildCacheSeeds: readonly NonNullable<EcosystemSetup['buildCacheSeed']>[];
}

function pythonAppStep(
  app: PythonApp,
  python: string,
  caches: CacheLayout,
): { step: PlannedStep; fetched: FetchedPythonApp } {
  const prefix = path.join(caches.tools, `${app.name}-${app.version}`);
  return {
    step: {
      id: `python-app-${app.name}`,
      ecosystem: Ecosystem.Python,
      command: venvAppCommand({
        python: q(python),
        prefix: q(prefix),
        name: app.name,
        requirements: `${app.name}==${app.version}`,
      }),
      reason: `python: ${app.name} ${app.version} from PyPI into ${prefix} (pip of ${python}; kept for later runs)`,
      inputs: [],
      caches: [`${app.name} ${app.version} ${prefix}`],
      produces: path.join(prefix, 'bin', app.name),
    },
    fetched: { binDir: path.join(prefix, 'exposed'), prefix, python: path.join(prefix, 'bin', 'python') },
  };
}

export async function planRegistrySetups(options: {
  readonly dir: string;
  readonly caches: CacheLayout;
  readonly worktree: WorktreeLayout;
  /** The interpreter applications' venvs are made from. */
  readonly python: string;
  /** How many ecosystems were found before (an only-alone setup is left out after any). */
  readonly alreadyDetected: number;
  readonly ecosystems?: readonly EcosystemModule[];
}): Promise<RegistrySetups> {
  const detected: string[] = [];
  const steps: PlannedStep[] = [];
  const pythonApps: FetchedPythonApp[] = [];
  const sandboxViews: SandboxView[] = [];
  const buildCacheSeeds: NonNullable<EcosystemSetup['buildCacheSeed']>[] = [];
  for (const ecosystem of options.ecosystems ?? ECOSYSTEMS_IN_SETUP_ORDER) {
    const setup = await ecosystem.setup?.(options.dir, options.caches, options.worktree);
    if (setup === undefined) continue;
    if (setup.onlyAlone === true && options.alreadyDetected + detected.length > 0) continue;
    detected.push(setup.detected);
    if (setup.pythonApp !== undefined) {
      const app = pythonAppStep(setup.pythonApp, options.python, options.caches);
      steps.push(app.step);
      pythonApps.push(app.fetched);
    }
    for (const step of setup.steps)
      steps.push({ ...step, ecosystem: step.ecosystem ?? setup.ecosystem, caches: step.caches ?? [] });
    if (setup.sandbox !== undefined) sandboxViews.push(setup.sandbox);
    if (setup.buildCacheSeed !== undefined) buildCacheSeeds.push(setup.buildCacheSeed);
  }
  return { detected, steps, pythonApps, sandboxViews, buildCacheSeeds };
}

/** What the sandbox gets of the registry's ecosystems when `commands.setup` replaced detection. */
export async function configuredSandboxViews(dir: string, caches: CacheLayout): Promise<SandboxView[]> {
  const views: SandboxView[] = [];
  for (const ecosystem of ECOSYSTEMS_IN_SETUP_ORDER) {
    const view = await ecosystem.configuredSandbox?.(dir, caches);
    if (view !== undefined) views.push(view);
  }
  return views;
}
