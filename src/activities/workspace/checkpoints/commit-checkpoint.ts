/**
 * The git end of recording a checkpoint, as one script: stage (optionally), write the
 * index's tree, commit it on HEAD, move the checkpoint ref, and list the refs the import
 * wants (import-run-refs.ts). In an agent's worktree every harness git call is a sandbox
 * launch (~50 ms); as separate calls these were five launches per checkpoint, and a step
 * that ran a tool records one. The commands still run in the sandbox, as before, only in
 * one process.
 *
 * No hook can run (none of these commands has one, and the harness overrides disable
 * them anyway); the commit is never signed (gpg.program would be code we run).
 */
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { gitScript } from '../git/git.js';

/** A fixed identity: checkpoints never depend on (or borrow) the user's. */
const CHECKPOINT_IDENTITY = {
  GIT_AUTHOR_NAME: 'issue-agent checkpoint',
  GIT_AUTHOR_EMAIL: 'checkpoint@issue-agent.invalid',
  GIT_COMMITTER_NAME: 'issue-agent checkpoint',
  GIT_COMMITTER_EMAIL: 'checkpoint@issue-agent.invalid',
} as const;

/** Exit codes of the script: which command failed. */
export const STAGE_FAILED = 100;
const FAILED_COMMAND: Readonly<Record<number, string>> = {
  [STAGE_FAILED]: 'add --all',
  101: 'write-tree',
  102: 'commit-tree',
  103: 'update-ref',
  104: 'for-each-ref',
};

/**
 * $1 stage (`all` or `none`), $2 message, $3 the checkpoint ref, then the refs to list.
 * An unborn HEAD (a repository with no commit yet) gets a root commit; any other
 * commit-tree failure is one.
 */
const SCRIPT = `
if [ "$1" = all ]; then git add --all || exit ${STAGE_FAILED}; fi
tree=$(git write-tree) || exit 101
if ! commit=$(git commit-tree --no-gpg-sign "$tree" -p HEAD -m "$2"); then
  ! git rev-parse --verify --quiet 'HEAD^{commit}' >/dev/null || exit 102
  commit=$(git commit-tree --no-gpg-sign "$tree" -m "$2") || exit 102
fi
git update-ref -m 'issue-agent: worktree checkpoint' "$3" "$commit" || exit 103
printf '%s %s\\n' "$tree" "$commit"
[ "$#" -le 3 ] || git for-each-ref --format='%(objectname) %(objecttype) %(refname)' "\${@:4}" || exit 104
`;

export interface CommittedCheckpoint {
  readonly commit: string;
  readonly tree: string;
  /** `for-each-ref` lines of the refs asked to be listed (after the ref moved). */
  readonly listed: string;
}

export interface CommitRequest {
  readonly worktreePath: string;
  readonly indexFile: string;
  readonly stage: 'all' | 'none';
  readonly ref: string;
  readonly message: string;
  readonly list: readonly string[];
}

/** Throws an AgentError naming the command that failed; a failed `add --all` is 'stage-failed' instead. */
export async function commitCheckpoint(request: CommitRequest): Promise<CommittedCheckpoint | 'stage-failed'> {
  const { worktreePath } = request;
  const result = await gitScript(worktreePath, SCRIPT, [request.stage, request.message, request.ref, ...request.list], {
    temporaryIndexFile: request.indexFile,
    env: CHECKPOINT_IDENTITY,
  });
  if (result.exitCode === STAGE_FAILED) return 'stage-failed';
  const [first = '', ...rest] = result.stdout.split('\n');
  const [tree, commit] = first.trim().split(' ');
  if (result.exitCode !== 0 || tree === undefined || commit === undefined) {
    const command = FAILED_COMMAND[result.exitCode] ?? 'the checkpoint script';
    const reason = (result.stderr || result.stdout).trim().split('\n')[0] ?? '';
    throw new AgentError(FailureType.WorktreeFailed, `git ${command} failed in ${worktreePath}: ${reason}`, {
      where: worktreePath,
      details: { exitCode: result.exitCode },
    });
  }
  return { tree, commit, listed: rest.join('\n') };
}
