/**
 * The environment plan of a worktree: `commands.setup` of `.agent/config.json` when
 * given (run in order, replacing detection), else one plan per ecosystem found in the
 * worktree's files (Node and Python here; the registry's ecosystems that
 * plan their own setup through registry-setup.ts; several may apply). Every choice carries a
 * one-line reason, as detect-commands does for the test command.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { Ecosystem } from '../../contracts/environment.js';
import type { CacheLayout, WorktreeLayout } from './cache-layout.js';
import { detectNode } from './detect-node.js';
import { detectPython, type PythonPlan, type PythonTools } from './detect-python.js';
import type { PlannedStep, ToolRequest } from './planned-step.js';
import { ECOSYSTEMS } from '../../definition/ecosystems/ecosystem-registry.js';
import type { SandboxView } from '../../definition/ecosystems/ecosystem.js';
import {
  configuredSandboxViews,
  planRegistrySetups,
  type FetchedPythonApp,
  type RegistrySetups,
} from './registry-setup.js';

export interface EnvironmentPlan {
  readonly detected: readonly string[];
  readonly steps: readonly PlannedStep[];
  readonly tools: readonly ToolRequest[];
  /** Set when a Python plan made a venv. */
  readonly venv?: string;
  /** A locked Python project's manager (uv, Poetry), fetched into the tools dir. */
  readonly pythonTool?: PythonPlan['tool'];
  /** Build caches to copy for the worktree once the steps ran (Go's GOCACHE). */
  readonly buildCacheSeeds: RegistrySetups['buildCacheSeeds'];
  /** Python applications a registry setup fetched (nox): on PATH for setup and, read-only, in the sandbox. */
  readonly pythonApps: readonly FetchedPythonApp[];
  /** What the sandbox gets of each registry ecosystem set up (Rust: CARGO_HOME read-only, offline; Maven's repository). */
  readonly sandboxViews: readonly SandboxView[];
}

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
  const { dir, caches } = options;
  const detected: string[] = [];
  const steps: PlannedStep[] = [];
  const tools: ToolRequest[] = [];
  const node = await detectNode(dir, caches);
  if (node) {
    detected.push(node.detected);
    if (node.step) steps.push(node.step);
    if (node.tool) tools.push(node.tool);
  }
  const python = await detectPython({ dir, venv: options.worktree.venv, caches, tools: options.python });
  if (python) {
    detected.push(...python.detected);
    steps.push(...python.steps);
  }
  const registry = await planRegistrySetups({
    dir,
    caches,
    worktree: options.worktree,
    python: options.python.python,
    alreadyDetected: detected.length,
  });
  detected.push(...registry.detected);
  steps.push(...registry.steps);
  if (detected.length === 0)
    detected.push(
      'no ecosystem detected (no package.json, Python project, go.mod, Cargo.toml or pom.xml): nothing to set up',
    );
  return {
    detected,
    steps,
    tools,
    ...(python ? { venv: python.venv } : {}),
    ...(python?.tool ? { pythonTool: python.tool } : {}),
    buildCacheSeeds: registry.buildCacheSeeds,
    pythonApps: registry.pythonApps,
    sandboxViews: registry.sandboxViews,
  };
}
