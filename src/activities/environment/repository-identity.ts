/**
 * What makes two checkouts the same repository for the caches (cache-layout.ts,
 * agent-setup-cache.ts): the URL of their `origin` remote, normalised (no credentials, no
 * `.git`, the same for the ssh and https forms; a local origin is its path), so a fresh
 * clone of a repository finds the caches its earlier clones and its origin filled.
 * Without an origin, the checkout's path (a worktree's: its repository's). Never anything the repository's
 * content says: a fork carries its upstream's commits and files, not its remote, and the
 * user's git config is out of every sandbox's reach.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { git } from '../workspace/git/git.js';

export async function repositoryIdentity(dir: string): Promise<string> {
  const origin = await git(dir, ['config', '--get', 'remote.origin.url']).catch(() => undefined);
  const url = origin?.exitCode === 0 ? origin.stdout.trim() : '';
  if (url !== '') return normalizeRemoteUrl(url);
  // A worktree of a repository without an origin is that repository: its checkout's path.
  const common = await git(dir, ['rev-parse', '--path-format=absolute', '--git-common-dir']).catch(() => undefined);
  const commonDir = common?.exitCode === 0 ? common.stdout.trim() : '';
  const checkout = path.basename(commonDir) === '.git' ? path.dirname(commonDir) : commonDir;
  // The checkout itself: its path as given (git names it by its real path).
  const given = path.resolve(dir);
  if (commonDir === '' || checkout === (await realpath(given).catch(() => given))) return given;
  return checkout;
}

/** `git@github.com:o/r.git`, `https://user:tok@GitHub.com/o/r/` → `github.com/o/r`; a local path stays one. */
export function normalizeRemoteUrl(url: string): string {
  const bare = url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(bare)) {
    const scp = /^(?:[^@/]+@)?([^:/]+):(.+)$/.exec(bare);
    return scp?.[1] && scp[2] ? `${scp[1].toLowerCase()}/${scp[2].replace(/^\/+/, '')}` : path.resolve(bare);
  }
  try {
    const parsed = new URL(bare);
    if (parsed.protocol === 'file:') return decodeURIComponent(parsed.pathname);
    return `${parsed.host.toLowerCase()}${parsed.pathname}`;
  } catch {
    return bare;
  }
}
