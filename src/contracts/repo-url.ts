/**
 * A repository given as a git URL (`https://…`, `ssh://…`, `git@host:owner/repo.git`,
 * `file:///srv/repo.git`) instead of a checkout path: such a run belongs to no machine
 * (every worker clones it into its own cache and delivers by pushing), so the workflow,
 * the worker and the client all need to tell the two apart. Pure, so the workflow can.
 *
 * Credentials embedded in a URL (`https://user:token@host/…`) never travel on: the URL
 * kept in the run's input, history, logs and errors is the one without them
 * (`withoutCredentials`), and workers authenticate with their own git credentials.
 */

/** `scheme://…` with a scheme git knows for remotes. */
const SCHEME_URL = /^(https?|ssh|git|file):\/\//i;
/** scp-like ssh: `[user@]host:path`, not a Windows drive (`C:\…`) and not a path with a slash before the colon. */
const SCP_LIKE = /^(?:[A-Za-z0-9._~-]+@)?[A-Za-z0-9.-]+:(?!\/\/)[^\\]/;

export function isRepoUrl(text: string): boolean {
  if (SCHEME_URL.test(text)) return true;
  return SCP_LIKE.test(text) && !/^[A-Za-z]:[\\/]/.test(text) && !text.startsWith('/') && !text.startsWith('.');
}

/** True when the URL carries a password or token (`user:secret@`, or any user part of an http(s) URL). */
export function hasCredentials(url: string): boolean {
  return withoutCredentials(url) !== url;
}

/**
 * The URL without secrets: an http(s) URL loses its whole user part (GitHub tokens are
 * often given as the user name alone), any other scheme loses the password; an scp-like
 * ssh address keeps its user name (`git@`), which is not a secret.
 */
export function withoutCredentials(url: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/@]*@)?(.*)$/.exec(url);
  if (match === null) return url;
  const [, scheme = '', userInfo, rest = ''] = match;
  if (userInfo === undefined) return url;
  if (/^https?:\/\//i.test(scheme)) return `${scheme}${rest}`;
  const user = userInfo.slice(0, -1).split(':')[0] ?? '';
  return user === '' ? `${scheme}${rest}` : `${scheme}${user}@${rest}`;
}

/** Every URL-with-credentials in free text (git's own messages) with its credentials removed. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/@]+@/g, (_whole, scheme: string) =>
    /^https?:\/\//i.test(scheme) ? scheme : `${scheme}***@`,
  );
}

/**
 * One spelling per repository, so two clients that name it differently start the same
 * run: credentials dropped, scheme and host lower-cased, trailing slashes and `.git`
 * removed (the path keeps its case: servers may be case-sensitive).
 */
export function normaliseRepoUrl(url: string): string {
  const bare = withoutCredentials(url.trim()).replace(/\/+$/, '');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/]*)(.*)$/.exec(bare);
  const joined =
    scheme === null ? bare : `${(scheme[1] ?? '').toLowerCase()}${(scheme[2] ?? '').toLowerCase()}${scheme[3] ?? ''}`;
  return joined.replace(/\.git$/, '');
}

/** The last path component without `.git`: the human part of the repository's identity. */
export function repoNameOfUrl(url: string): string {
  const path = normaliseRepoUrl(url)
    .replace(/^[^:]*:\/\/[^/]*/, '')
    .replace(/^[^/]*:/, '');
  const last =
    path
      .split('/')
      .filter((p) => p !== '')
      .pop() ?? '';
  return last === '' ? 'repo' : last;
}
