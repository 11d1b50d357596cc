/**
 * How one agent-controlled command (a bash tool call, a validator) is started: the
 * argv under the machine's isolation (process-isolation), the filesystem view
 * (sandbox-prelude) and the environment (sandbox-env). Shared by the bash tool and the
 * validators' command runner, since both run code the agent wrote. When the environment
 * phase prepared the worktree (environment.json in its sandbox state), its PATH
 * additions, variables and directories apply here: see sandbox-environment.
 */
import { existsSync } from 'node:fs';
import type { SandboxEnvironment } from '../../contracts/environment.js';
import { readEnvironmentReport } from '../environment/environment-file.js';
import os from 'node:os';
import path from 'node:path';
import { gitDirsOf, protectedFiles } from '../workspace/git/git-state-snapshot.js';
import { ensureAgentHome, validatorStateDir } from '../workspace/sandbox-state.js';
import { forgetValidatorHome } from './validator-home.js';
import { runRefDirs } from '../workspace/run-refs.js';
import { privateRepositoryView, repositoryView } from './repository-view.js';
import { OWN_REPOSITORY_MARKER, privateRepoOf } from '../workspace/private-repo/private-repo-layout.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import {
  detectIsolation,
  enforcesFilesystem,
  isolatedArgv,
  IsolationMode,
  type Isolation,
} from './process-isolation.js';
import type { SandboxView } from './sandbox-prelude.js';
import { namespacesDisabled, SANDBOX_ISOLATION_ENV, sandboxNetworkFromEnv } from './sandbox-policy.js';
import { buildSandboxEnv } from './sandbox-env.js';
import { setupConnectPorts } from './setup-connect-ports.js';
import { absolutePathEntries } from '../process/absolute-path.js';
import { isInside } from '../../definition/load/path-inside.js';
import { dependencyDirs, hiddenDirs, toolchainDirs } from './sandbox-host-dirs.js';
import { validatorView } from './validator-view.js';

export interface SandboxRequest {
  /** The worktree (or any directory) the command runs in. */
  readonly dir: string;
  readonly command: string;
  /** Read-only step: the worktree and its git dir are mounted read-only. */
  readonly readOnly: boolean;
  readonly extraEnv?: Readonly<Record<string, string>>;
  /**
   * More writable directories, for the harness's own git in the worktree only (the
   * checkpoint index beside its marker); never for a command the agent chose.
   */
  readonly harnessWritable?: readonly string[];
  /**
   * The harness's own git (sandboxed-git.ts): it may see a worktree whose private
   * repository is gone through the shared view (prepareWorkspace makes a new one);
   * any other command there is refused (refuseLostOwnRepository).
   */
  readonly harnessGit?: boolean;
  /**
   * A configured command (a validator, the preflight, a run step): a HOME and build
   * outputs of the validators' own, which the agent's commands never see (validator-view.ts).
   */
  readonly validator?: boolean;
  /**
   * The host's network even when the sandbox policy has none: for the commands of an
   * agent-written setup only, which fetch what the tests need (agent-setup.md).
   */
  readonly network?: boolean;
  /**
   * The environment phase's setup (contained-setup-runner): exactly this environment
   * (already without credentials) instead of the agent's, no prepared environment, and
   * these directories writable besides the worktree (the shared package caches, the
   * worktree's venv and setup HOME). Never for a command a model chose.
   */
  readonly setup?: {
    readonly env: Readonly<Record<string, string>>;
    readonly writable: readonly string[];
    /** Shown read-only (the fetched tools, a warm cache a command copies from). */
    readonly readOnly?: readonly string[];
  };
  readonly warn?: (message: string) => void;
}

export interface SandboxCommand {
  readonly file: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly isolation: Isolation;
}

/**
 * The prepared environment over the sandbox env: its bins first on PATH, its variables
 * (a command's own `extraEnv` still wins). Toolchain dirs are then derived from the
 * new PATH, so a venv's base interpreter under a version manager stays visible.
 */
export function applyEnvironment(
  env: Record<string, string>,
  prepared: SandboxEnvironment,
  extraEnv: Readonly<Record<string, string>>,
): void {
  for (const [name, value] of Object.entries(prepared.env)) if (extraEnv[name] === undefined) env[name] = value;
  if (prepared.pathPrepend.length > 0) env['PATH'] = [...prepared.pathPrepend, env['PATH'] ?? ''].join(':');
}

/**
 * A worktree that was given a private repository (its admin dir holds the marker) but
 * has none now: its sandbox state was removed under the live run. The shared view would
 * let the agent's git stage into the user's admin dir and fail on the user's read-only
 * refs, far from the cause: refuse the command here, naming it.
 */
function refuseLostOwnRepository(worktree: string, userAdminDir: string): void {
  const marker = path.join(userAdminDir, OWN_REPOSITORY_MARKER);
  if (!existsSync(marker)) return;
  throw new AgentError(
    FailureType.WorktreeFailed,
    `the run's own git repository for worktree ${worktree} is gone (its sandbox state was removed while the run lived), so no agent command runs there (the worktree's files are kept; commits made since the last completed step were only in that repository)`,
    {
      where: marker,
      expected: 'the run retried (`issue-agent retry`), which makes the repository again from the branch',
    },
  );
}

export async function sandboxCommand(request: SandboxRequest): Promise<SandboxCommand> {
  const detected = await detectIsolation(request.warn);
  const isolation: Isolation = namespacesDisabled() ? { ...detected, mode: IsolationMode.None } : detected;
  if (isolation !== detected) request.warn?.(`[tools] WARNING: namespaces turned off by ${SANDBOX_ISOLATION_ENV}`);
  const agentHome = await ensureAgentHome(request.dir);
  const dirs = await gitDirsOf(request.dir).catch(() => undefined);
  if (request.network === true && request.setup === undefined)
    await forgetValidatorHome(validatorStateDir(request.dir));
  // Setup makes the prepared environment; it never runs in an earlier one.
  const prepared = request.setup ? undefined : readEnvironmentReport(request.dir)?.sandbox;
  const validator =
    request.validator === true && request.setup === undefined
      ? await validatorView(request.dir, agentHome, prepared, dirs !== undefined)
      : undefined;
  const home = validator?.home ?? agentHome;
  const env = request.setup ? { ...request.setup.env } : buildSandboxEnv(home, process.env, request.extraEnv);
  const launcherPath = absolutePathEntries(env['PATH']) ?? '';
  if (prepared) applyEnvironment(env, prepared, request.extraEnv ?? {});
  for (const [name, value] of Object.entries(validator?.env ?? {}))
    if (request.extraEnv?.[name] === undefined) env[name] = value;
  // What setup installed in the worktree: read-only but to an agent-written setup (the network's).
  const installed = request.network === true ? undefined : prepared?.installed;
  // A validator's own copies replace the agent's writable caches (Go's build cache, node_modules/.cache).
  const preparedWritable = validator && prepared?.validators ? [] : (prepared?.writableDirs ?? []);
  const installedWritable = validator ? [] : (installed?.writable ?? []);
  // rustup, cargo and go find their installs and modules through these, defaulting to the
  // (hidden) real HOME.
  for (const [name, dir] of [
    ['RUSTUP_HOME', '.rustup'],
    ['CARGO_HOME', '.cargo'],
    ['GOMODCACHE', 'go/pkg/mod'],
  ] as const) {
    const real = path.join(os.homedir(), dir);
    if (env[name] === undefined && existsSync(real)) env[name] = real;
  }
  // Looked up in the worktree, a relative entry would start the agent's `setpriv` on the host.
  env['PATH'] = absolutePathEntries(env['PATH']) ?? '';
  // A worktree with a repository of its own (private-repo): the user's git dir read-only,
  // whole, and the private one shown at the admin dir's path. One that shares the
  // user's git dir without one (made outside a run): that git dir read-only, with holes
  // for what the run's own commits write (repository-view.ts).
  const own = dirs && !isInside(request.dir, dirs.commonDir) ? privateRepoOf(request.dir) : undefined;
  if (dirs && own === undefined && request.harnessGit !== true) refuseLostOwnRepository(request.dir, dirs.gitDir);
  const shared =
    dirs === undefined || isInside(request.dir, dirs.commonDir)
      ? undefined
      : own !== undefined
        ? privateRepositoryView(dirs.commonDir, dirs.gitDir, own.repo, runRefDirs(request.dir, dirs.gitDir))
        : repositoryView(dirs.commonDir, dirs.gitDir, runRefDirs(request.dir, dirs.gitDir));
  const work = [request.dir, ...(shared?.writable ?? [])];
  if (dirs && !shared && !isInside(request.dir, dirs.gitDir)) work.push(dirs.gitDir);
  const hidden = hiddenDirs();
  const view: SandboxView = {
    writable: [
      ...(request.readOnly ? [home] : [...work, home]),
      ...(request.harnessWritable ?? []).filter((d) => existsSync(d)),
      ...(request.setup?.writable ?? []).filter((d) => existsSync(d)),
      ...[...preparedWritable, ...installedWritable, ...(validator?.writable ?? [])].filter((d) => existsSync(d)),
    ],
    overlays: [
      ...(shared?.overlays ?? []).map((o) => ({ ...o, readOnly: request.readOnly })),
      ...(validator?.overlays ?? []),
    ],
    readOnly: [
      ...(shared?.readOnly ?? []),
      ...(request.readOnly ? work : []),
      ...toolchainDirs(env['PATH'] ?? '', hidden),
      // A prepared worktree has its own node_modules: the checkout's is not shown.
      ...dependencyDirs(prepared ? undefined : dirs?.commonDir, process.env),
      ...[...(prepared?.readOnlyDirs ?? []), ...(installed?.readOnly ?? [])].filter((d) => existsSync(d)),
      ...(request.setup?.readOnly ?? []).filter((d) => existsSync(d)),
    ],
    hidden,
    protectedPaths: dirs
      ? [...protectedFiles(request.dir, dirs.commonDir, dirs.gitDir), path.join(dirs.commonDir, 'hooks')]
      : [],
  };
  const privateNetwork = request.network !== true && sandboxNetworkFromEnv() === 'none';
  // The launcher and the prelude (root in the namespace, before the drop) find their tools on
  // the worker's PATH; the prepared bins (a dependency's console scripts) go first for the
  // command only.
  const separate = enforcesFilesystem(isolation) && env['PATH'] !== launcherPath;
  const commandView = separate ? { ...view, commandPath: env['PATH'] ?? '' } : view;
  if (separate) env['PATH'] = launcherPath;
  // A command with the host's network (setup) connects only to the ports setup needs: not to
  // this host's Temporal frontend or any other local service (setup-connect-ports.ts).
  const connectPorts = request.network === true ? setupConnectPorts(process.env) : undefined;
  const { file, args } = isolatedArgv(isolation, {
    command: request.command,
    view: commandView,
    privateNetwork,
    ...(connectPorts === undefined ? {} : { connectPorts }),
  });
  return { file, args, env, isolation };
}
