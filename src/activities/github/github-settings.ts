/**
 * GitHub configuration, read from the environment in one place:
 * - GITHUB_TOKEN (required in github mode),
 * - GITHUB_API_URL (default https://api.github.com; GitHub Enterprise or a test server),
 * - GITHUB_REPOSITORY=owner/name, else parsed from `git remote get-url origin`.
 *
 * The token is kept as a non-enumerable property so that logging or serialising the
 * settings object (JSON.stringify, console.log, workflow history) cannot show it.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { git } from '../workspace/git/git.js';
import { redactSecret } from '../edge/secret-redactor.js';

export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

export interface GitHubSettings {
  /** Non-enumerable: never serialised. */
  readonly token: string;
  readonly baseUrl: string;
  readonly owner: string;
  readonly repo: string;
  readonly userAgent?: string;
}

export interface RepositoryName {
  readonly owner: string;
  readonly repo: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const NAME = /^[A-Za-z0-9_.-]+$/;

/** The token, or GITHUB_AUTH naming the variable (never its value). */
export function requireGitHubToken(env: Env): string {
  const token = env['GITHUB_TOKEN']?.trim();
  if (!token) {
    throw new AgentError(
      FailureType.GitHubAuth,
      'GITHUB_TOKEN is not set: the github issue source and boundary hook need a token',
      {
        where: 'GITHUB_TOKEN',
        expected: 'a GitHub token with issues and pull-requests write access (and contents write to push)',
      },
    );
  }
  return token;
}

export function gitHubApiUrl(env: Env): string {
  const raw = env['GITHUB_API_URL']?.trim() || DEFAULT_GITHUB_API_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(
      'GITHUB_API_URL',
      `is not a URL: ${redactSecret(raw, env['GITHUB_TOKEN'])}`,
      'an http(s) URL such as https://api.github.com',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid('GITHUB_API_URL', `has protocol ${url.protocol}`, 'an http(s) URL');
  return raw.replace(/\/+$/, '');
}

/** owner/name from https, ssh (`git@host:o/r.git`) and ssh:// remote URLs; undefined otherwise. */
export function parseGitHubRemote(url: string): RepositoryName | undefined {
  const trimmed = url.trim();
  const scp = /^[^@/\s]+@[^:/\s]+:(?:\/?)([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(trimmed);
  if (scp) return named(scp[1], scp[2]);
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (!['https:', 'http:', 'ssh:', 'git:'].includes(parsed.protocol)) return undefined;
  const parts = parsed.pathname.replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length < 2) return undefined;
  return named(parts[parts.length - 2], parts[parts.length - 1]?.replace(/\.git$/, ''));
}

/** GITHUB_REPOSITORY, else the origin remote of `repoPath`. */
export async function repositoryFromEnv(env: Env, repoPath: string): Promise<RepositoryName> {
  const configured = env['GITHUB_REPOSITORY']?.trim();
  if (configured) {
    const [owner, repo, extra] = configured.split('/');
    const name = extra === undefined ? named(owner, repo) : undefined;
    if (!name) throw invalid('GITHUB_REPOSITORY', `is ${JSON.stringify(configured)}`, 'owner/name, e.g. acme/widgets');
    return name;
  }
  const remote = await git(repoPath, ['remote', 'get-url', 'origin']);
  const url = remote.stdout.trim();
  const name = remote.exitCode === 0 ? parseGitHubRemote(url) : undefined;
  if (!name) {
    const seen =
      remote.exitCode === 0
        ? `origin is ${redactSecret(url, env['GITHUB_TOKEN'])}`
        : `${repoPath} has no origin remote`;
    throw invalid(
      'GITHUB_REPOSITORY',
      `is not set and the repository could not be derived: ${seen}`,
      'GITHUB_REPOSITORY=owner/name, or an origin remote such as https://github.com/owner/name.git or git@github.com:owner/name.git',
    );
  }
  return name;
}

export async function gitHubSettingsFromEnv(env: Env, repoPath: string): Promise<GitHubSettings> {
  const token = requireGitHubToken(env);
  const baseUrl = gitHubApiUrl(env);
  const { owner, repo } = await repositoryFromEnv(env, repoPath);
  return withHiddenToken({ baseUrl, owner, repo }, token);
}

/** Builds settings whose token does not show up when the object is printed or serialised. */
export function withHiddenToken<T extends Omit<GitHubSettings, 'token'>>(
  settings: T,
  token: string,
): T & { readonly token: string } {
  const result = { ...settings };
  Object.defineProperty(result, 'token', { value: token, enumerable: false, writable: false });
  return result as T & { readonly token: string };
}

function named(owner: string | undefined, repo: string | undefined): RepositoryName | undefined {
  if (!owner || !repo || !NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..') return undefined;
  return { owner, repo };
}

function invalid(variable: string, problem: string, expected: string): AgentError {
  return new AgentError(FailureType.ConfigInvalid, `${variable} ${problem}`, { where: variable, expected });
}
