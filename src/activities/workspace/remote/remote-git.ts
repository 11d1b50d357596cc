/**
 * Git that talks to a run's remote repository (clone, fetch, checkpoint pushes, delivery
 * pushes): the harness runner (no hooks, scrubbed environment) plus, for an https remote
 * on the GitHub host, the token as a per-origin auth header in git's env-config (never
 * argv, never disk: git-auth-env.ts). ssh and file remotes use the worker's own keys.
 * The agent's tools never see any of it: they run in the sandbox with their own
 * environment, and the clone's config holds the URL without credentials.
 *
 * Every message that leaves here names the URL without credentials and has the token
 * (in all its spellings) removed.
 */
import { remoteGitEnv } from '../../github/git-auth-env.js';
import { gitHubApiUrl } from '../../github/github-settings.js';
import { redactorFor } from '../../edge/secret-redactor.js';
import { redactUrlCredentials } from '../../../contracts/repo-url.js';
import { git, type GitResult } from '../git/git.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface RemoteGit {
  /** Runs git in `cwd` with the environment for talking to `url`. */
  run(cwd: string, url: string, args: readonly string[]): Promise<GitResult>;
  /** Removes the worker's token and any URL credentials from text. */
  redact(text: string): string;
}

export function createRemoteGit(env: Env = process.env): RemoteGit {
  const token = env['GITHUB_TOKEN'] || undefined;
  const redactToken = redactorFor(token);
  const redact = (text: string): string => redactUrlCredentials(redactToken(text));
  return {
    run: (cwd, url, args) => {
      let apiBaseUrl: string;
      try {
        apiBaseUrl = gitHubApiUrl(env);
      } catch {
        apiBaseUrl = 'https://api.github.com';
      }
      const gitEnv = remoteGitEnv(env, url, { apiBaseUrl, ...(token === undefined ? {} : { token }) });
      return git(cwd, args, { env: gitEnv });
    },
    redact,
  };
}

/** git's most telling line (fatal:/error:), for an error message. */
export function gitMessage(result: GitResult): string {
  const lines = `${result.stderr}\n${result.stdout}`.split('\n').map((l) => l.trim());
  return (
    lines.find((l) => /^(fatal|error|remote:)/i.test(l)) ?? lines.find((l) => l !== '') ?? `exit ${result.exitCode}`
  );
}
