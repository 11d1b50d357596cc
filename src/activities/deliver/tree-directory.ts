/**
 * A directory of a tree the agent wrote, reached on the host without following a link.
 * The host writes a few files into the run's worktree (a remote repository's local
 * issue, its closing committed on the branch), as the worker. Any component of the path
 * may be a symlink the agent planted (`.agent/issues -> ~/.config/autostart`), and a
 * write through it would put agent-chosen text into a directory of the worker's. So each
 * component is looked at with lstat, created when missing, and refused when it is a link
 * or not a directory; the agent does not run while the host delivers, so what was looked
 * at is what is written.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { isMissing } from '../../definition/load/read-optional.js';

/** The absolute path of `relativeDir` under `root`, every component a real directory. */
export async function realDirectoryInTree(root: string, relativeDir: string): Promise<string> {
  const parts = normalize(relativeDir)
    .split(sep)
    .filter((p) => p !== '' && p !== '.');
  if (isAbsolute(relativeDir) || parts.includes('..'))
    throw new Error(`realDirectoryInTree: ${relativeDir} is not a path inside the tree`);
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    const kind = await kindOf(dir);
    if (kind === 'missing') await mkdir(dir).catch((error: unknown) => rethrowUnlessExists(error));
    else if (kind !== 'directory') throw refused(root, relativeDir, dir, kind);
    // Created just now or by someone else meanwhile: look again.
    if (kind === 'missing' && (await kindOf(dir)) !== 'directory') throw refused(root, relativeDir, dir, 'other');
  }
  return dir;
}

type Kind = 'missing' | 'directory' | 'symlink' | 'other';

async function kindOf(path: string): Promise<Kind> {
  try {
    const s = await lstat(path);
    return s.isSymbolicLink() ? 'symlink' : s.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    if (isMissing(error)) return 'missing';
    throw error;
  }
}

function rethrowUnlessExists(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
}

function refused(root: string, relativeDir: string, at: string, kind: Kind): AgentError {
  const what = kind === 'symlink' ? 'a symlink' : 'not a directory';
  return new AgentError(FailureType.WorktreeFailed, `${relativeDir} in ${root} is refused: ${at} is ${what}`, {
    where: at,
    expected: `${relativeDir} a real directory of the worktree (the host never writes through a link the agent made)`,
  });
}
