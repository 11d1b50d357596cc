/**
 * The user's refs as the agent's own repository shows them: a `packed-refs` file the
 * harness writes in the private common dir, from the user's repository (`main`, tags,
 * remote-tracking branches), refreshed whenever the run's refs are imported.
 *
 * The private common dir is read-only to the agent but for the run's own ref
 * directories (repository-view.ts), and loose refs there are the run's own: so `main`,
 * which the harness resolves to find the run's base commit (base-commit.ts), is always
 * what the user's repository says, never a ref the agent made. The run's own refs are
 * left out: the agent's repository holds them.
 */
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../git/git.js';

const LINE = /^([0-9a-f]{40}|[0-9a-f]{64}) (refs\/\S+)(?: ([0-9a-f]{40}|[0-9a-f]{64}))?$/;

/** Writes `<privateCommonDir>/packed-refs` from the user's repository, atomically. */
export async function writeUserRefs(
  userRepo: string,
  privateCommonDir: string,
  isRunRef: (ref: string) => boolean,
): Promise<void> {
  const listed = await gitOrThrow(
    userRepo,
    ['for-each-ref', '--format=%(objectname) %(refname) %(*objectname)%(if)%(symref)%(then) symref%(end)'],
    FailureType.WorktreeFailed,
  );
  const lines = ['# pack-refs with: peeled fully-peeled sorted '];
  for (const line of listed.split('\n')) {
    const match = LINE.exec(line.trimEnd());
    // A symbolic ref (refs/remotes/origin/HEAD) cannot be packed; its target is.
    if (match === null || isRunRef(match[2] ?? '')) continue;
    lines.push(`${match[1]} ${match[2]}`);
    if (match[3] !== undefined) lines.push(`^${match[3]}`);
  }
  const target = path.join(privateCommonDir, 'packed-refs');
  await writeFile(`${target}.new`, `${lines.join('\n')}\n`);
  await rename(`${target}.new`, target);
}

/** The run's own refs: its branch and its checkpoint namespace (`refs/agent/...`). */
export function runRefFilter(branchRef: string): (ref: string) => boolean {
  return (ref) => ref === branchRef || ref.startsWith('refs/agent/');
}
