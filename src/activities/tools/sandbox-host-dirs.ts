/**
 * What of the host a sandboxed command sees besides its worktree: the directories hidden
 * under an empty tmpfs (the worker's home and state, shared temp dirs), the toolchains on
 * PATH that live under them, and installed dependencies a worktree resolves through its
 * ancestors. Packages and toolchains only, never a credential.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxStateRoot } from '../workspace/sandbox-state.js';
import { isInside } from '../../definition/load/path-inside.js';

/** Directories covered by an empty tmpfs: the worker's home and state, shared temp dirs. */
export function hiddenDirs(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const candidates = [env['HOME'], os.homedir(), path.dirname(sandboxStateRoot(env)), '/tmp', '/var/tmp', '/dev/shm'];
  const out = new Set<string>();
  for (const dir of candidates) if (dir && path.resolve(dir) !== '/' && existsSync(dir)) out.add(path.resolve(dir));
  return [...out];
}

/**
 * Version managers whose whole root holds toolchains and nothing secret: their shims
 * need the root (pyenv's `libexec/` and `version` file, nvm's `versions/`, rustup's
 * toolchains), so the root is shown read-only when a PATH entry lies inside it.
 */
const TOOLCHAIN_ROOTS = new Set(['.pyenv', '.rbenv', '.nodenv', '.nvm', '.volta', '.asdf', '.rustup', '.sdkman', 'go']);

/**
 * Toolchains installed under a hidden home (nvm, cargo, pyenv) stay usable: each PATH
 * entry inside a hidden dir is shown read-only, with the `lib` (npm) or `versions`
 * directory next to it, or the whole root of a known version manager. For cargo, the
 * registry and rustup's toolchains are shown, never `~/.cargo/credentials.toml`.
 * Nothing else of the home is shown.
 */
export function toolchainDirs(pathVar: string, hidden: readonly string[]): string[] {
  const out = new Set<string>();
  for (const entry of pathVar.split(':')) {
    if (!entry || !path.isAbsolute(entry) || !hidden.some((h) => isInside(h, entry))) continue;
    const root = path.dirname(entry);
    const candidates = TOOLCHAIN_ROOTS.has(path.basename(root))
      ? [root]
      : [entry, path.join(root, 'lib'), path.join(root, 'versions')];
    if (path.basename(root) === '.cargo') {
      candidates.push(path.join(root, 'registry'), path.join(path.dirname(root), '.rustup'));
    }
    for (const dir of candidates) if (existsSync(dir)) out.add(dir);
  }
  return [...out];
}

/**
 * Installed dependencies the worktree resolves through its ancestors or caches: the
 * user's checkout's `node_modules` (node and npm walk up from a worktree inside the
 * checkout: under a configured root, or an earlier version's default under its git dir)
 * and Go's module cache. Shown read-only; usually they sit
 * under a hidden HOME. They hold packages, not credentials.
 */
export function dependencyDirs(
  commonDir: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const checkout = commonDir !== undefined && path.basename(commonDir) === '.git' ? path.dirname(commonDir) : undefined;
  const goModCache = env['GOMODCACHE'] ?? path.join(env['GOPATH'] ?? path.join(os.homedir(), 'go'), 'pkg', 'mod');
  const candidates = [...(checkout === undefined ? [] : [path.join(checkout, 'node_modules')]), goModCache];
  return candidates.filter((dir) => existsSync(dir));
}
