/**
 * A memo for git's layout queries (`rev-parse --path-format=absolute --git-common-dir`,
 * `--absolute-git-dir`, `--git-path <file>`): the harness asks them several times per step
 * (checkpoint marker, temporary index, repository lock), and their answer only changes
 * when the directory's `.git` entry does. So an answer is reused while `<dir>/.git` is
 * the same directory (inode) or a `gitdir:` file with the same bytes (a worktree); a
 * directory without its own `.git` entry (a subdirectory) is never cached. What the agent
 * can change (rewrite a worktree's `.git` file) changes the key, so the cache never
 * answers what git would not.
 */
import { join } from 'node:path';
import { lstatNow, readNow } from './stat-now.js';

/** Flags of a layout query (the value of `--git-path` is checked separately). */
const LAYOUT_FLAGS: ReadonlySet<string> = new Set(['--path-format=absolute', '--git-common-dir', '--absolute-git-dir']);

/** Whether `args` (after `git`) is a layout query whose answer may be memoised. */
export function isLayoutQuery(args: readonly string[]): boolean {
  if (args[0] !== 'rev-parse' || !args.includes('--path-format=absolute')) return false;
  for (let i = 1; i < args.length; i += 1) {
    const arg = args[i]!;
    if (LAYOUT_FLAGS.has(arg)) continue;
    // --git-path's answer for hooks depends on core.hooksPath: not a layout fact.
    if (arg === '--git-path' && args[i + 1] !== undefined && !args[i + 1]!.startsWith('hooks')) {
      i += 1;
      continue;
    }
    return false;
  }
  return true;
}

const MAX_ENTRIES = 2000;

export interface LayoutAnswer {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GitLayoutCache {
  /** The memoised answer of `query` in `dir`, or `ask()`'s (remembered when it succeeded). */
  answer(dir: string, args: readonly string[], ask: () => Promise<LayoutAnswer>): Promise<LayoutAnswer>;
}

export function createGitLayoutCache(): GitLayoutCache {
  const entries = new Map<string, LayoutAnswer>();
  return {
    async answer(dir, args, ask) {
      const identity = dotGitIdentity(dir);
      if (identity === undefined) return ask();
      const key = `${dir}\0${identity}\0${args.join('\0')}`;
      const known = entries.get(key);
      if (known !== undefined) return known;
      const fresh = await ask();
      if (fresh.exitCode !== 0) return fresh;
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, fresh);
      return fresh;
    },
  };
}

/** What `<dir>/.git` is: `dir:<dev>:<ino>`, `file:<bytes>`, or undefined (none, or unreadable). */
function dotGitIdentity(dir: string): string | undefined {
  const path = join(dir, '.git');
  const info = lstatNow(path);
  if (info === undefined) return undefined;
  if (info.isDirectory()) return `dir:${info.dev}:${info.ino}`;
  if (!info.isFile() || info.size > 4096n) return undefined;
  const bytes = readNow(path);
  return bytes === undefined ? undefined : `file:${info.dev}:${info.ino}:${bytes.toString('utf8')}`;
}
