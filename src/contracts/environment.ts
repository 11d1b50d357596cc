/**
 * The environment phase's contract: what `prepareEnvironment` is asked and what it
 * reports. The report is returned to the workflow (small: reasons, steps, timings) and
 * persisted next to the worktree's sandbox state, where every later agent command and
 * validator in that worktree reads it (PATH additions, variables, the dirs it may see).
 */

/** What a setup step prepares. Closed set: detection and docs switch over it. */
export const Ecosystem = {
  Npm: 'npm',
  Pnpm: 'pnpm',
  Yarn: 'yarn',
  Bun: 'bun',
  Python: 'python',
  Go: 'go',
  Rust: 'rust',
  Maven: 'maven',
  /** A CMake project that downloads at configure time (FetchContent). */
  CMake: 'cmake',
  /** `commands.setup` of `.agent/config.json`. */
  Configured: 'configured',
} as const;
export type Ecosystem = (typeof Ecosystem)[keyof typeof Ecosystem];

/** What became of one step in this call. */
export const SetupStepStatus = {
  /** The command ran (and exited 0). */
  Ran: 'ran',
  /** This worktree already had its result for the same inputs (a retried or resumed activity). */
  Skipped: 'skipped',
  /** Its result was copied from a snapshot of the same lockfile (node_modules), not produced by running it. */
  Restored: 'restored',
  /** An optional step (warming a build cache) failed; the run goes on without it. */
  FailedOptional: 'failed-optional',
} as const;
export type SetupStepStatus = (typeof SetupStepStatus)[keyof typeof SetupStepStatus];

export interface PrepareEnvironmentInput {
  /** The run's worktree at the base commit: setup runs here. */
  readonly worktreePath: string;
  /** The user's checkout (identity of the repository; never written). */
  readonly repoPath: string;
  /**
   * `commands.setup` already read by the caller; when absent, `.agent/config.json` of the
   * worktree (the base commit) is read.
   */
  readonly setup?: readonly string[];
  /**
   * The run's base commit: when given, setup refuses a worktree that is not clean at it
   * (setup runs repository code with the network: only committed code, never the agent's).
   */
  readonly baseCommit?: string;
  /** Per-command timeout (default 15 min). */
  readonly commandTimeoutMs?: number;
  /** `setup` was written by the model (docs/environments/agent-setup.md), not configured: the report says so. */
  readonly agentWritten?: boolean;
}

export interface SetupStepReport {
  readonly ecosystem: Ecosystem;
  /** The command line as run (paths of the harness shown as they are: no secret in them). */
  readonly command: string;
  /** Why it runs: one line. */
  readonly reason: string;
  readonly status: SetupStepStatus;
  /** The shared cache already held what this step needs (same repository and lockfile). */
  readonly cacheHit: boolean;
  /** What was reused, one line each (`npm cache …`, `pnpm 9.15.0 from …`). */
  readonly reused: readonly string[];
  readonly durationMs: number;
  /** The last lines of the output when an optional step failed. */
  readonly note?: string;
}

/** How every later command in the worktree is started; read by sandbox-launch. */
export interface SandboxEnvironment {
  /** Put first on PATH, in order (a venv's bin, a package manager's bin). */
  readonly pathPrepend: readonly string[];
  /** Set in the agent's environment (VIRTUAL_ENV, GOCACHE, GOMODCACHE, GOPROXY=off …). */
  readonly env: Readonly<Record<string, string>>;
  /** Shown read-only in the sandbox (the venv, the base interpreter, shared caches, tool dirs). */
  readonly readOnlyDirs: readonly string[];
  /** Shown writable (the worktree's own GOCACHE, seeded from the warm shared one). */
  readonly writableDirs: readonly string[];
  /**
   * The dependencies setup installed in the worktree (its `node_modules`): read-only to the
   * agent's commands and the validators, but for the caches test tools write in them
   * (`writable`); writable to an agent-written setup, which has the network to install.
   * Absent in reports written before it existed.
   */
  readonly installed?: { readonly readOnly: readonly string[]; readonly writable: readonly string[] };
  /**
   * What configured commands (validators, the preflight) use instead of the agent's
   * `writableDirs` (tools/validator-view.ts): Go's GOCACHE of their own, seeded like the
   * agent's. Absent in reports written before it existed, and for ecosystems with none.
   */
  readonly validators?: ValidatorsEnvironment;
}

export interface ValidatorsEnvironment {
  readonly env: Readonly<Record<string, string>>;
  readonly writableDirs: readonly string[];
}

export interface EnvironmentReport {
  readonly version: 1;
  readonly worktreePath: string;
  /** One line per detection: what and why (or that `commands.setup` was used). */
  readonly detected: readonly string[];
  readonly steps: readonly SetupStepReport[];
  /** Every step that uses a shared cache found it warm (a second run of the same repository and lockfile). */
  readonly cached: boolean;
  readonly sandbox: SandboxEnvironment;
  /** As ValidationReport.gitRestored: setup ran the repository's code, and changed these git files. */
  readonly gitRestored?: readonly string[];
  /** What the run should tell the user (setup left files git shows …). */
  readonly warnings: readonly string[];
  /**
   * The warnings the repository itself can act on (what it should add to `.gitignore`): the
   * delivery repeats them in the pull request and the closing comment, for whoever maintains it.
   */
  readonly repositoryAdvice?: readonly string[];
  readonly durationMs: number;
}
