/**
 * The setups of the registry's ecosystems (EcosystemModule.setup), planned in its setup
 * order: each one's package manager is fetched from the npm registry and its pinned
 * Python application from PyPI into the shared tools dir (`<tools>/<name>-<version>`, a
 * venv of its own, the way PDM and Poetry are), then its steps run with them on PATH. The
 * sandbox later gets their bins on PATH, their prefixes and a venv's base interpreter
 * read-only, and each ecosystem's own view (sandbox-environment.ts).
 */
import path from 'node:path';
import { Ecosystem } from '../../contracts/environment.js';
import { ECOSYSTEMS_IN_SETUP_ORDER } from '../../definition/ecosystems/ecosystem-registry.js';
import {
  EcosystemId,
  q,
  type EcosystemModule,
  type BuildCacheSeed,
  type PythonApp,
  type PythonTools,
  type SandboxView,
  type ToolRequest,
} from '../../definition/ecosystems/ecosystem.js';
import { venvAppCommand } from '../../definition/ecosystems/python-tool.js';
import type { CacheLayout, WorktreeLayout } from './cache-layout.js';
import type { PlannedStep } from './planned-step.js';

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
  /** Package managers to fetch from the npm registry before the steps. */
  readonly tools: readonly ToolRequest[];
  /** The interpreter of the venv a setup made, whose base prefix the sandbox must see. */
  readonly interpreter?: string;
  readonly pythonApps: readonly FetchedPythonApp[];
  /** What the sandbox gets of each ecosystem set up, in registry order. */
  readonly sandboxViews: readonly SandboxView[];
  /** Build caches to copy for the worktree once the steps ran. */
  readonly buildCacheSeeds: readonly BuildCacheSeed[];
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
      owners: [EcosystemId.Python],
      installsTool: true,
      produces: path.join(prefix, 'bin', app.name),
    },
    fetched: { binDir: path.join(prefix, 'exposed'), prefix, python: path.join(prefix, 'bin', 'python') },
  };
}

export async function planRegistrySetups(options: {
  readonly dir: string;
  readonly caches: CacheLayout;
  readonly worktree: WorktreeLayout;
  /** The machine's Python: applications' venvs are made from its interpreter. */
  readonly python: PythonTools;
  readonly ecosystems?: readonly EcosystemModule[];
}): Promise<RegistrySetups> {
  const detected: string[] = [];
  const steps: PlannedStep[] = [];
  const tools: ToolRequest[] = [];
  let interpreter: string | undefined;
  const pythonApps: FetchedPythonApp[] = [];
  const sandboxViews: SandboxView[] = [];
  const buildCacheSeeds: BuildCacheSeed[] = [];
  for (const ecosystem of options.ecosystems ?? ECOSYSTEMS_IN_SETUP_ORDER) {
    const setup = await ecosystem.setup?.(options.dir, options.caches, options.worktree, options.python);
    if (setup === undefined) continue;
    if (setup.onlyAlone === true && detected.length > 0) continue;
    detected.push(...(typeof setup.detected === 'string' ? [setup.detected] : setup.detected));
    if (setup.packageManager !== undefined) tools.push(setup.packageManager);
    interpreter ??= setup.interpreter;
    if (setup.pythonApp !== undefined) {
      const app = pythonAppStep(setup.pythonApp, options.python.python, options.caches);
      steps.push(app.step);
      pythonApps.push(app.fetched);
    }
    for (const step of setup.steps)
      steps.push({
        ...step,
        ecosystem: step.ecosystem ?? setup.ecosystem,
        caches: step.caches ?? [],
        owners: [setup.cacheOwner ?? ecosystem.id],
      });
    if (setup.sandbox !== undefined) sandboxViews.push(setup.sandbox);
    buildCacheSeeds.push(...(setup.buildCacheSeeds ?? []));
  }
  return {
    detected,
    steps,
    tools,
    ...(interpreter === undefined ? {} : { interpreter }),
    pythonApps,
    sandboxViews,
    buildCacheSeeds,
  };
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
