/**
 * Where the harness keeps per-worktree sandbox state: the agent's private HOME and the
 * snapshot of the repository's git config and hooks. Both live in the worker's state
 * directory (`$ISSUE_AGENT_STATE_DIR`, else `$XDG_STATE_HOME/issue-agent`, else
 * `~/.local/state/issue-agent`), never in the repository: inside the worktree they
 * would be committed, inside `.git` the agent could rewrite the snapshot it is checked
 * against. The agent's sandbox hides the worker's home (see process-isolation).
 *
 * One directory per worktree, keyed by its path, holding `worktree` (the path, so
 * stale entries can be swept), `home/`, `git-snapshot.json`, the environment phase's
 * `environment.json` and `env/`, and the validators' own `validators/`; shared caches
 * live beside `sandbox/`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** In each sandbox dir: the worktree's path, what the sweep judges the dir by. */
const OWNER_FILE = 'worktree';

/** The worker's state dir: `$ISSUE_AGENT_STATE_DIR`, else the XDG state dir of issue-agent. */
export function harnessStateBase(env: Env = process.env): string {
  const explicit = env['ISSUE_AGENT_STATE_DIR'];
  if (explicit) return explicit;
  const xdg = env['XDG_STATE_HOME'];
  return xdg ? path.join(xdg, 'issue-agent') : path.join(env['HOME'] || os.homedir(), '.local/state/issue-agent');
}

export function sandboxStateRoot(env: Env = process.env): string {
  return path.join(harnessStateBase(env), 'sandbox');
}

/** The state directory of one worktree: `<root>/<name>-<hash of the path>`. */
export function sandboxDir(worktreePath: string, env: Env = process.env): string {
  const resolved = path.resolve(worktreePath);
  const hash = createHash('sha256').update(resolved).digest('hex').slice(0, 16);
  const name = path.basename(resolved).replace(/[^A-Za-z0-9._-]/g, '_');
  return path.join(sandboxStateRoot(env), `${name}-${hash}`);
}

export function agentHomePath(worktreePath: string, env: Env = process.env): string {
  return path.join(sandboxDir(worktreePath, env), 'home');
}

export function gitSnapshotPath(worktreePath: string, env: Env = process.env): string {
  return path.join(sandboxDir(worktreePath, env), 'git-snapshot.json');
}

/**
 * The environment phase's per-worktree state: its venv, its own GOCACHE, the setup
 * HOME and the stamps that make a retried setup reuse what is there.
 */
export function environmentStateDir(worktreePath: string, env: Env = process.env): string {
  return path.join(sandboxDir(worktreePath, env), 'env');
}

/**
 * What configured commands (validators, the preflight, run steps) keep of their own, never
 * shown to the agent's commands: build outputs and caches a test tool trusts, and a fresh
 * HOME per command (tools/validator-view.ts).
 */
export function validatorStateDir(worktreePath: string, env: Env = process.env): string {
  return path.join(sandboxDir(worktreePath, env), 'validators');
}

/** The persisted EnvironmentReport of a worktree; sandbox-launch reads it. */
export function environmentReportPath(worktreePath: string, env: Env = process.env): string {
  return path.join(sandboxDir(worktreePath, env), 'environment.json');
}

/**
 * Shared across worktrees and runs: package-manager caches and stores, Go's module and
 * build caches, cargo's registry, fetched package managers. Packages only, never a
 * credential; the agent's sandbox shows them read-only.
 */
export function environmentCacheRoot(env: Env = process.env): string {
  return path.join(path.dirname(sandboxStateRoot(env)), 'cache');
}

/**
 * The directory, with its owner file naming the worktree. Other runs' sweeps read that file
 * at any moment, so it is written once and whole (a temp file renamed over it): rewritten
 * in place on every launch, a sweep could read it empty, take the live worktree for gone
 * and remove its state, the private repository with the agent's commits among it.
 */
async function ensureSandboxDir(worktreePath: string): Promise<string> {
  const dir = sandboxDir(worktreePath);
  const owner = path.resolve(worktreePath);
  const ownerFile = path.join(dir, OWNER_FILE);
  if ((await readFile(ownerFile, 'utf8').catch(() => undefined)) === owner) return dir;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeWhole(ownerFile, owner);
  return dir;
}

/** A temp file renamed over `file`: a reader sees the old text or the new, never a part. */
async function writeWhole(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}`;
  await writeFile(temp, text, { encoding: 'utf8', mode: 0o600 });
  await rename(temp, file);
}

/** The agent's private HOME (also its TMPDIR) for this worktree, created when missing. */
export async function ensureAgentHome(worktreePath: string): Promise<string> {
  await ensureSandboxDir(worktreePath);
  const home = agentHomePath(worktreePath);
  await mkdir(home, { recursive: true, mode: 0o700 });
  return home;
}

/** Whole (writeWhole): every launch reads the run's ref record and git snapshot, also mid-write. */
export async function writeSandboxFile(worktreePath: string, file: string, text: string): Promise<void> {
  const dir = await ensureSandboxDir(worktreePath);
  await writeWhole(path.join(dir, file), text);
}

/**
 * Removes the worktree's private HOME and git snapshot. Call it when the worktree is
 * removed (delivery); stale ones are also swept at the next prepareWorkspace.
 */
export async function removeAgentSandbox(worktreePath: string): Promise<void> {
  await rm(sandboxDir(worktreePath), { recursive: true, force: true });
}

/** When each state root was last swept by this process (ms since epoch). */
const lastSweeps = new Map<string, number>();
/** A run start sweeps at most this often per process: 50 runs starting at once each read every sandbox's owner file. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * At a run start: sweeps the stale sandboxes unless this process swept the same root
 * within the last minute (state of a removed worktree waits a little longer, harmlessly).
 */
export async function sweepStaleSandboxesOccasionally(env: Env = process.env, now = Date.now()): Promise<string[]> {
  const root = sandboxStateRoot(env);
  const last = lastSweeps.get(root);
  if (last !== undefined && now - last < SWEEP_INTERVAL_MS) return [];
  lastSweeps.set(root, now);
  return sweepStaleSandboxes(env);
}

/** Removes the state of worktrees that no longer exist; returns the removed directories. */
export async function sweepStaleSandboxes(env: Env = process.env): Promise<string[]> {
  const root = sandboxStateRoot(env);
  const entries = await readdir(root).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const entry of entries) {
    const dir = path.join(root, entry);
    // No owner named (none yet, or an older version's file read mid-write): never judged gone.
    const owner = (await readFile(path.join(dir, OWNER_FILE), 'utf8').catch(() => '')).trim();
    if (!path.isAbsolute(owner)) continue;
    const gone = await stat(owner).then(
      (s) => !s.isDirectory(),
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    );
    if (!gone) continue;
    // Housekeeping never fails a run: a directory refilled while it is removed stays for the next sweep.
    const done = await rm(dir, { recursive: true, force: true }).then(
      () => true,
      () => false,
    );
    if (done) removed.push(dir);
  }
  return removed;
}
