/**
 * What the harness knows of one ecosystem, gathered in one descriptor so that adding an
 * ecosystem is one module, its test and its doc page: the shared machinery (test-command
 * detection, the configured setup's inputs, unrecoverable output, detected setups, the
 * sandbox's view of a fetched tool, reading a test run's output and reports) iterates the registry (ecosystem-registry.ts) and
 * names no ecosystem. It sits on the definition floor so that repo-config detection and
 * every activity may import it; nothing in it runs a process.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheLayout, WorktreeLayout } from '../../contracts/environment-dirs.js';
import type { Ecosystem, ValidatorsEnvironment } from '../../contracts/environment.js';
import type { CouldNotRunSign } from './could-not-run-sign.js';
import type { RepoCommands } from '../../contracts/repo-config.js';
import type { TestRunner } from './test-runners/test-runner.js';

/** Closed set: one id per registry entry (the registry test checks each appears once). */
export const EcosystemId = {
  Node: 'node',
  CBuild: 'c-build',
  Maven: 'maven',
  Gradle: 'gradle',
  Python: 'python',
  Go: 'go',
  Rust: 'rust',
  Nox: 'nox',
} as const;
export type EcosystemId = (typeof EcosystemId)[keyof typeof EcosystemId];

export interface DetectedCommands {
  readonly commands: RepoCommands;
  /** One line per chosen command: what and why. */
  readonly reasons: readonly string[];
}

/** Output that says the runner or its toolchain is missing, not that a test failed. */
export interface UnrecoverablePattern {
  readonly match: RegExp;
  readonly reason: string;
}

/** The reason of every "runner not found" pattern. */
export const MISSING_TOOL = 'command not found; install it (or the project dependencies) or fix the validator command';

/** A Python application the ecosystem's setup needs, pinned, fetched from PyPI into the shared tools dir. */
export interface PythonApp {
  /** Its PyPI name, which is also its command (`nox`). */
  readonly name: string;
  readonly version: string;
}

/** A package manager the ecosystem's setup needs and the machine may lack: fetched from the npm registry. */
export interface ToolRequest {
  readonly name: 'pnpm' | 'yarn' | 'bun';
  readonly version: string;
  /** `pnpm@9.15.0`, `@yarnpkg/cli-dist@4.5.3`. */
  readonly spec: string;
  /** Whether the version came from package.json `packageManager`. */
  readonly pinned: boolean;
  /** bun's npm package links its platform binary in a postinstall script. */
  readonly needsScripts: boolean;
}

/** What the worker's machine offers a setup, found by the activity (activities/environment/setup-host.ts). */
export interface PythonTools {
  /** The interpreter venvs and Python applications are made from (`python3` on PATH). */
  readonly python: string;
  /** `uv` is on PATH. */
  readonly uv: boolean;
  /** `<python> -m pip --version`, run only when a setup asks (undefined when it failed). */
  readonly pipVersion?: () => Promise<string | undefined>;
}

/** What the agent's sandbox gets once the ecosystem's setup ran: variables, and shared caches it may only read. */
export interface SandboxView {
  /** Put first on PATH, in order, before fetched tools' bins (a venv's bin, its manager's). */
  readonly pathPrepend?: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly readOnlyDirs: readonly string[];
  /** Shown writable: the worktree's own copy of a build cache. */
  readonly writableDirs?: readonly string[];
  /** Variables taken from setup's environment when set there (GOFLAGS: Go's build cache is keyed by them). */
  readonly fromSetupEnv?: readonly string[];
  /** What configured commands use instead of `writableDirs` (a build cache of their own). */
  readonly validators?: ValidatorsEnvironment;
}

/** A copy of a warm shared build cache: the agent's, or the validators' own. */
export interface BuildCacheSeed {
  readonly shared: string;
  readonly target: string;
  /** Whose copy, for the report. */
  readonly for: 'agent' | 'validators';
}

/** One step of its setup (activities/environment/planned-step.ts runs them). */
export interface EcosystemStep {
  /** Stable within a plan: `cargo-fetch`, `maven-resolve` … */
  readonly id: string;
  readonly command: string;
  /** One line: what was detected and why this command. */
  readonly reason: string;
  /** Worktree-relative files whose content keys the step. */
  readonly inputs: readonly string[];
  /** When it is not the setup's own (`EcosystemSetup.ecosystem`). */
  readonly ecosystem?: Ecosystem;
  /** The shared caches it fills, for the report (`CARGO_HOME /…/cache/cargo`). */
  readonly caches?: readonly string[];
  /** A path that must exist for an earlier run of the step in this worktree to count. */
  readonly produces?: string;
  /** Warming a cache: a failure is reported, not fatal. */
  readonly optional?: boolean;
  /** Everything it leaves is in the shared caches: a new worktree with warm caches skips it. */
  readonly cacheOnly?: boolean;
  /** What it produces may be a copy of an earlier install of the same inputs (node_modules: node-modules-snapshot.ts). */
  readonly snapshot?: boolean;
  /**
   * It fetches a pinned tool from a registry into the shared tools dir, the only kind of
   * step that may write there (activities/environment/setup-scope.ts): so it must run none
   * of the repository's code (`python -I`, no config read from the worktree).
   */
  readonly installsTool?: boolean;
}

/** A setup the ecosystem plans from the repository's files, run with the network before the agent starts. */
export interface EcosystemSetup {
  /** One line for the report, or several: what was found and what runs. */
  readonly detected: string | readonly string[];
  /** What its steps are reported as preparing. */
  readonly ecosystem: Ecosystem;
  /** Fetched before the steps, on their PATH and (read-only) on the sandbox's, with its base interpreter. */
  readonly pythonApp?: PythonApp;
  /** Fetched from the npm registry before the steps (package-manager-tool.ts), first on their PATH and the sandbox's. */
  readonly packageManager?: ToolRequest;
  /** The interpreter of the venv it makes: its base prefix is shown read-only in the sandbox (python-base.ts). */
  readonly interpreter?: string;
  readonly steps: readonly EcosystemStep[];
  /** Whose shared caches its steps fill when not its own module's (nox's venvs: Python's pip and uv caches). */
  readonly cacheOwner?: EcosystemId;
  /** Said (and run) only when no other ecosystem was found: a C build that downloads nothing. */
  readonly onlyAlone?: boolean;
  readonly sandbox?: SandboxView;
  /** Build caches setup warmed in the shared dir, copied for this worktree after the steps (go-cache-seed.ts). */
  readonly buildCacheSeeds?: readonly BuildCacheSeed[];
}

/**
 * What the ecosystem's own tools write into a worktree and no project commits (`target/`,
 * `__pycache__/`): kept out of the run's commits when the repository does not ignore it
 * (activities/environment/build-outputs.ts).
 */
export interface BuildOutputs {
  /** Root files any of which says the repository is of this ecosystem. */
  readonly markers: readonly string[];
  /** gitignore patterns, each with a path it would ignore (to ask git whether the repository already does). */
  readonly patterns: readonly { readonly pattern: string; readonly probe: string }[];
}

export interface EcosystemModule {
  readonly id: EcosystemId;
  /** Its page in docs/environments/ (a test checks it exists). */
  readonly docPage: string;
  /** Root files whose content keys a configured `commands.setup` (manifests, lockfiles), in order. */
  readonly setupInputs: readonly string[];
  /** The test command the repository's files call for; the first ecosystem in registry order that finds one wins. */
  readonly testCommand?: (dir: string) => Promise<DetectedCommands | undefined>;
  /**
   * What setup's commands are told of the shared caches; `inherited` is the worker's environment (credential-free).
   * The dirs it names inside the cache root are the only shared ones this ecosystem's steps may write (setup-scope.ts).
   */
  readonly setupEnv?: (
    caches: CacheLayout,
    worktree: WorktreeLayout,
    inherited: Readonly<Record<string, string>>,
  ) => Readonly<Record<string, string>>;
  /** Where packages come from (PIP_INDEX_URL …): kept for setup unless a credential is written into the URL. */
  readonly registryPointers?: readonly string[];
  /** Toolchain roots that default to $HOME (`PYENV_ROOT`, `.pyenv`): kept pointing at the worker's installs. */
  readonly homeToolchains?: readonly (readonly [variable: string, underHome: string])[];
  /** On the base commit: the command could not run at all (preflight/could-not-run.ts), in registry order after the shell's and make's. */
  readonly couldNotRun?: readonly CouldNotRunSign[];
  /** Checked in registry order after the shell's own "not found". */
  readonly unrecoverable?: readonly UnrecoverablePattern[];
  /** Its setup, planned in the registry's setup order (activities/environment/registry-setup.ts). */
  readonly setup?: (
    dir: string,
    caches: CacheLayout,
    worktree: WorktreeLayout,
    python: PythonTools,
  ) => Promise<EcosystemSetup | undefined>;
  /** What the sandbox sees when `commands.setup` replaces detection (Maven's local repository). */
  readonly configuredSandbox?: (dir: string, caches: CacheLayout) => Promise<SandboxView | undefined>;
  /**
   * The test runners whose output and reports it reads (test-runners/), in the order their
   * failures are listed; the registry reads them in its report order.
   */
  readonly testRunners?: readonly TestRunner[];
  /** What its tools build in the worktree: never part of the run's commits. */
  readonly buildOutputs?: BuildOutputs;
}

/** A file of the repository, or undefined when it cannot be read. */
export function readRepoFile(dir: string, file: string): Promise<string | undefined> {
  return readFile(join(dir, file), 'utf8').catch(() => undefined);
}

/** POSIX-shell single quoting: a setup's commands embed harness paths. */
export function q(text: string): string {
  return /^[A-Za-z0-9_./:=@+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
