/**
 * The cache of accepted agent-written setups: a second run of the same repository with
 * the same lockfiles takes the commands that made its tests run and asks no model. The
 * key is the repository's identity (its origin remote, the same in every clone, else its
 * path; and its root commits) and the committed content of every file that looks like a
 * manifest or lockfile, of any ecosystem (the one being prepared is, by definition, one
 * no detector knows). A lockfile change is a new key: the old commands may no longer
 * install what the new lockfile says. Stored under the shared cache dir as JSON; it
 * holds commands, never credentials (the model never had one).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentSetupProposal } from '../../contracts/agent-setup.js';
import { git } from '../workspace/git/git.js';
import { environmentCacheRoot } from '../workspace/sandbox-state.js';
import { sha } from './cache-layout.js';
import { repositoryIdentity } from './repository-identity.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Bump when what a cached proposal means changes: older entries are then missed, not misread. */
const KEY_VERSION = 'agent-setup-v2';

const MANIFEST_NAMES = new Set([
  'package.json',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'go.mod',
  'go.sum',
  'Cargo.toml',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'CMakeLists.txt',
  'Makefile',
  'GNUmakefile',
  'configure.ac',
  'meson.build',
  'Gemfile',
  'composer.json',
  'mix.exs',
  'stack.yaml',
  'dune-project',
  'Package.swift',
  'pubspec.yaml',
  'deps.edn',
  'project.clj',
  'build.sbt',
  'DESCRIPTION',
  'flake.nix',
  'shell.nix',
  'default.nix',
  '.tool-versions',
]);

/** A manifest or lockfile of any ecosystem, by its base name. PURE. */
export function isLockfileName(name: string): boolean {
  if (MANIFEST_NAMES.has(name)) return true;
  if (/(^|[._-])lock([._-]|$)|\.lockb?$/i.test(name)) return true;
  if (/^requirements.*\.txt$/.test(name)) return true;
  return /\.(cabal|opam|csproj|fsproj|nimble|rockspec)$/.test(name);
}

export interface RepositoryFacts {
  /**
   * Which repository (repository-identity.ts): its origin, else its path. Root commits alone
   * are a fork's too, and a fork's agent must not choose another repository's test command.
   */
  readonly identity: string;
  /** Root commits of HEAD, sorted. */
  readonly roots: readonly string[];
  /** Tracked lockfiles and manifests: path and blob id. */
  readonly lockfiles: ReadonlyArray<{ readonly path: string; readonly blob: string }>;
}

/** The cache key of a repository and its lockfiles; independent of where it is cloned. PURE. */
export function agentSetupKey(facts: RepositoryFacts): string {
  const files = [...facts.lockfiles].sort((a, b) => a.path.localeCompare(b.path)).map((f) => `${f.path}:${f.blob}`);
  return sha(KEY_VERSION, facts.identity, ...[...facts.roots].sort(), '--', ...files);
}

/** What git says of the worktree's HEAD (the base commit); undefined when it is not a repository. */
export async function repositoryFacts(worktreePath: string): Promise<RepositoryFacts | undefined> {
  const roots = await git(worktreePath, ['rev-list', '--max-parents=0', 'HEAD']).catch(() => undefined);
  const tree = await git(worktreePath, ['ls-tree', '-r', '--full-tree', 'HEAD']).catch(() => undefined);
  if (roots?.exitCode !== 0 || tree?.exitCode !== 0) return undefined;
  const lockfiles: { path: string; blob: string }[] = [];
  for (const line of tree.stdout.split('\n')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
    if (m?.[1] && m[2] && isLockfileName(path.posix.basename(m[2]))) lockfiles.push({ path: m[2], blob: m[1] });
  }
  return {
    identity: await repositoryIdentity(worktreePath),
    roots: roots.stdout.split('\n').filter(Boolean),
    lockfiles,
  };
}

function cacheFile(key: string, env: Env): string {
  return path.join(environmentCacheRoot(env), 'agent-setup', `${key}.json`);
}

function isProposal(value: unknown): value is AgentSetupProposal {
  if (typeof value !== 'object' || value === null) return false;
  const { setup, test } = value as Record<string, unknown>;
  return (
    typeof test === 'string' &&
    test.trim() !== '' &&
    Array.isArray(setup) &&
    setup.every((c) => typeof c === 'string' && c.trim() !== '')
  );
}

export async function readCachedSetup(
  worktreePath: string,
  env: Env = process.env,
): Promise<AgentSetupProposal | undefined> {
  const facts = await repositoryFacts(worktreePath);
  if (facts === undefined) return undefined;
  const text = await readFile(cacheFile(agentSetupKey(facts), env), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isProposal(value) ? { setup: [...value.setup], test: value.test } : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole then renamed: a concurrent run reads the old entry or the new one, never half. */
export async function keepSetup(
  worktreePath: string,
  proposal: AgentSetupProposal,
  env: Env = process.env,
): Promise<void> {
  const facts = await repositoryFacts(worktreePath);
  if (facts === undefined) return;
  const file = cacheFile(agentSetupKey(facts), env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const body = { setup: proposal.setup, test: proposal.test, at: new Date().toISOString() };
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, 'utf8');
  await rename(temp, file);
}
