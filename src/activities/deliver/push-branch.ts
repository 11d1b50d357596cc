/**
 * The `push` effect: publish the issue branch on `origin` so a pull request can be
 * opened from it. Plain push (no force): if someone else moved the remote branch, the
 * push fails and says so rather than overwriting their work. Looks first: when the
 * remote branch already points at our head, nothing is sent.
 *
 * The token reaches git only through the environment built by remoteGitEnv (never
 * argv, never disk); git's own messages are redacted before they are reported.
 * `--no-verify`: a pre-push hook would run with that environment, and the repository's
 * hooks are not ours to run on the worker.
 */
import { remoteGitEnv } from '../github/git-auth-env.js';
import { redactorFor } from '../edge/secret-redactor.js';
import { git, type GitResult } from '../workspace/git/git.js';
import { already, done, failed, type Step } from './boundary-steps.js';

export interface PushRequest {
  readonly repoPath: string;
  readonly branch: string;
  readonly remote?: string;
  readonly token?: string;
  readonly apiBaseUrl: string;
  /** Environment the git process starts from (secrets are scrubbed from it). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const NAME = 'push';

export async function pushBranch(request: PushRequest): Promise<Step> {
  const { repoPath, branch } = request;
  const remote = request.remote ?? 'origin';
  const redact = redactorFor(request.token);
  const pending = `push ${branch} to ${remote}: git -C ${repoPath} push ${remote} ${branch}`;

  const head = await git(repoPath, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
  if (head.exitCode !== 0)
    return failed(
      NAME,
      `branch ${branch} does not exist in ${repoPath}`,
      `recreate ${branch} from the run's worktree, then ${pending}`,
    );
  const sha = head.stdout.trim();

  const url = await git(repoPath, ['remote', 'get-url', remote]);
  if (url.exitCode !== 0)
    return failed(
      NAME,
      `${repoPath} has no remote named ${remote}`,
      `add the GitHub repository as ${remote}, then ${pending}`,
    );
  const env = remoteGitEnv(request.env ?? process.env, url.stdout.trim(), {
    apiBaseUrl: request.apiBaseUrl,
    ...(request.token ? { token: request.token } : {}),
  });
  // The shared runner keeps only the auth header (GIT_CONFIG_*) and the forwarded basics of `env`.
  const run = (args: readonly string[]): Promise<GitResult> => git(repoPath, args, { env });

  const seen = await run(['ls-remote', '--heads', remote, `refs/heads/${branch}`]);
  if (seen.exitCode !== 0) return failed(NAME, redact(`cannot read ${remote}: ${firstLine(seen)}`), pending);
  const remoteSha = seen.stdout
    .split('\n')
    .find((l) => l.endsWith(`\trefs/heads/${branch}`))
    ?.split('\t')[0];
  if (remoteSha === sha) return already(NAME, `${remote}/${branch} is already at ${sha.slice(0, 12)}`);

  const pushed = await run(['push', '--no-verify', '--porcelain', remote, `refs/heads/${branch}:refs/heads/${branch}`]);
  if (pushed.exitCode !== 0) {
    const why = /non-fast-forward|fetch first|rejected/i.test(pushed.stdout + pushed.stderr)
      ? `${remote}/${branch} has commits the run does not have`
      : firstLine(pushed);
    return failed(NAME, redact(`pushing ${branch} to ${remote} failed: ${why}`), pending);
  }
  return done(NAME, `pushed ${branch} (${sha.slice(0, 12)}) to ${remote}`);
}

function firstLine(result: GitResult): string {
  const lines = `${result.stderr}\n${result.stdout}`.split('\n').map((l) => l.trim());
  return (
    lines.find((l) => /^(fatal|error|remote:)/i.test(l)) ?? lines.find((l) => l !== '') ?? `exit ${result.exitCode}`
  );
}
