/**
 * The ref directories of the shared git dir that one worktree's run may write: its
 * branch's directory (`refs/heads/agent` for `agent/issue-7`) and its checkpoint
 * namespace (`refs/agent/<agent>/issue-7`). The sandbox makes the rest of the shared git
 * dir read-only (repository-view.ts), so these are the only refs a command there can move.
 *
 * Recorded by the harness in the worktree's sandbox state (prepareWorkspace for the
 * branch, the checkpoint code for its namespace), never read from anything the agent can
 * write. Without a record (a worktree made outside a run, in tests) the branch the
 * worktree's HEAD names is used.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxDir, writeSandboxFile } from './sandbox-state.js';

const RECORD = 'run-refs.json';
/** The run's branch, which the validators judge and the delivery delivers (judged-tree/head-on-branch.ts). */
const BRANCH_RECORD = 'run-branch';

function read(worktreePath: string): string[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(sandboxDir(worktreePath), RECORD), 'utf8'));
    return Array.isArray(parsed) ? parsed.filter((d): d is string => typeof d === 'string') : [];
  } catch {
    return [];
  }
}

/** The directory (relative to the common git dir) holding `ref`: `refs/heads/agent/issue-7` → `refs/heads/agent`. */
export function refDirectory(ref: string): string {
  return path.posix.dirname(ref);
}

/** Adds the directory of `ref` (a full ref name) to the worktree's writable ref dirs. */
export async function recordRunRef(worktreePath: string, ref: string): Promise<void> {
  const dir = refDirectory(ref);
  if (!dir.startsWith('refs/') || dir.split('/').includes('..')) return;
  const known = read(worktreePath);
  if (known.includes(dir)) return;
  await writeSandboxFile(worktreePath, RECORD, JSON.stringify([...known, dir]));
}

/** The recorded ref dirs of the worktree; without a record, the dir of the branch its HEAD names. */
export function runRefDirs(worktreePath: string, gitDir: string): string[] {
  const known = read(worktreePath);
  if (known.length > 0) return known;
  try {
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    const match = /^ref: (refs\/heads\/\S+)$/.exec(head);
    return match?.[1] === undefined || match[1].includes('..') ? [] : [refDirectory(match[1])];
  } catch {
    return [];
  }
}

/** Records the run's branch: its ref dir becomes writable, and the validators judge only it. */
export async function recordRunBranch(worktreePath: string, branch: string): Promise<void> {
  await recordRunRef(worktreePath, `refs/heads/${branch}`);
  await writeSandboxFile(worktreePath, BRANCH_RECORD, branch);
}

/** The recorded run branch (`agent/issue-7`), or undefined for a worktree made outside a run. */
export function recordedRunBranch(worktreePath: string): string | undefined {
  try {
    const branch = readFileSync(path.join(sandboxDir(worktreePath), BRANCH_RECORD), 'utf8').trim();
    return branch === '' ? undefined : branch;
  } catch {
    return undefined;
  }
}
