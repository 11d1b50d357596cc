/**
 * A per-lockfile snapshot of `node_modules` (issue 29): after a Node install succeeded,
 * its `node_modules` is copied into the shared cache, keyed by the step's shared key
 * (ecosystem, package.json and lockfile as committed) plus the Node version, platform and
 * architecture; a later run of the same repository and lockfile gets a copy of it instead
 * of an install. The copy is `cp -a --reflink=auto`: a copy-on-write clone where the file
 * system has them, else real files. Never a symlink or a hard link: the agent can write
 * anything in its worktree's node_modules, and that must never reach the cache (nor the
 * other runs that copy from it).
 *
 * Only where the copy is the whole result of the install: a root package.json with no
 * install-time script of its own (preinstall, install, postinstall, prepare run the
 * project's code and may write outside node_modules), no workspaces (their packages get
 * node_modules of their own), and no symlink in node_modules that points by absolute
 * path (into the worktree the install ran in).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ecosystem } from '../../contracts/environment.js';
import { sha, type CacheLayout } from './cache-layout.js';
import type { PlannedStep } from './planned-step.js';
import type { CommandRunner } from '../process/command-runner.js';

const run = promisify(execFile);

const SNAPSHOT_ECOSYSTEMS: ReadonlySet<string> = new Set([
  Ecosystem.Npm,
  Ecosystem.Pnpm,
  Ecosystem.Bun,
  Ecosystem.Yarn,
]);
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish'] as const;

/** `node --version` as setup runs it, per PATH (asked once per worker and PATH). */
const nodeVersions = new Map<string, Promise<string | undefined>>();

/** The snapshot's directory for a step that may be one (`snapshot`), with the Node version setup runs. */
export async function nodeModulesSnapshotFor(options: {
  readonly step: PlannedStep;
  readonly runner: CommandRunner;
  /** The environment setup runs with. */
  readonly env: Readonly<Record<string, string>>;
  readonly worktreePath: string;
  readonly caches: CacheLayout;
  readonly sharedKey: string;
}): Promise<string | undefined> {
  const { env, worktreePath } = options;
  const pathVar = env['PATH'] ?? '';
  let version = nodeVersions.get(pathVar);
  if (version === undefined) {
    version = options.runner
      .run({ command: 'node --version', cwd: worktreePath, env, timeoutMs: 30_000 })
      .then((r) => (r.exitCode === 0 ? r.all.trim().split('\n').pop() : undefined))
      .catch(() => undefined);
    nodeVersions.set(pathVar, version);
  }
  const nodeVersion = await version;
  if (nodeVersion === undefined || !/^v\d+\./.test(nodeVersion)) return undefined;
  return nodeModulesSnapshotDir({ ...options, nodeVersion });
}

/** The snapshot's directory for this step, or undefined when the step's result cannot be a copy. */
async function nodeModulesSnapshotDir(options: {
  readonly step: PlannedStep;
  readonly worktreePath: string;
  readonly caches: CacheLayout;
  readonly sharedKey: string;
  /** `node --version` as setup runs it. */
  readonly nodeVersion: string;
}): Promise<string | undefined> {
  const { step, worktreePath } = options;
  if (step.snapshot !== true || !SNAPSHOT_ECOSYSTEMS.has(step.ecosystem)) return undefined;
  if (step.produces !== path.join(worktreePath, 'node_modules')) return undefined; // yarn berry PnP
  if (existsSync(path.join(worktreePath, 'pnpm-workspace.yaml'))) return undefined;
  const pkg = await readFile(path.join(worktreePath, 'package.json'), 'utf8').catch(() => undefined);
  if (pkg === undefined) return undefined;
  try {
    const parsed = JSON.parse(pkg) as { scripts?: Record<string, unknown>; workspaces?: unknown };
    if (parsed.workspaces !== undefined) return undefined;
    if (INSTALL_SCRIPTS.some((s) => parsed.scripts?.[s] !== undefined)) return undefined;
  } catch {
    return undefined;
  }
  const key = sha(options.sharedKey, options.nodeVersion.trim(), process.platform, process.arch);
  return path.join(options.caches.root, 'node-modules', key);
}

/** A copy (clone where possible) of `from` at `to`, which must not exist. */
async function copyTree(from: string, to: string): Promise<void> {
  try {
    await run('cp', ['-a', '--reflink=auto', from, to]);
  } catch {
    // Not GNU cp (no --reflink): Node's own copy, clone-on-write where the kernel offers it.
    await rm(to, { recursive: true, force: true });
    await cp(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  }
}

/** Puts a copy of the snapshot at `target` (replacing what is there); false when there is none. */
export async function restoreNodeModules(snapshotDir: string, target: string): Promise<boolean> {
  const source = path.join(snapshotDir, 'node_modules');
  if (!existsSync(path.join(snapshotDir, 'complete')) || !existsSync(source)) return false;
  await rm(target, { recursive: true, force: true });
  try {
    await copyTree(source, target);
    return true;
  } catch {
    await rm(target, { recursive: true, force: true });
    return false;
  }
}

/** True when a symlink under `dir` points by absolute path (the copy would point elsewhere). */
async function hasAbsoluteLink(dir: string): Promise<boolean> {
  const { stdout } = await run('find', [dir, '-type', 'l', '-lname', '/*', '-print', '-quit']);
  return stdout.trim() !== '';
}

/**
 * Saves `source` (an install's node_modules) as the snapshot: copied aside, then renamed
 * into place, so a reader never sees half a snapshot. Returns false when not saved.
 */
export async function saveNodeModules(source: string, snapshotDir: string): Promise<boolean> {
  if (existsSync(path.join(snapshotDir, 'complete')) || !existsSync(source)) return false;
  if (await hasAbsoluteLink(source).catch(() => true)) return false;
  const temp = `${snapshotDir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  try {
    await mkdir(temp, { recursive: true, mode: 0o700 });
    await copyTree(source, path.join(temp, 'node_modules'));
    await writeFile(path.join(temp, 'complete'), `${new Date().toISOString()}\n`);
    await rm(snapshotDir, { recursive: true, force: true });
    await rename(temp, snapshotDir);
    return true;
  } catch {
    await rm(temp, { recursive: true, force: true });
    return false;
  }
}
