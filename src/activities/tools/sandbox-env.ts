/**
 * The environment an agent-controlled command sees: a whitelist, never the worker's
 * own env. The worker holds ANTHROPIC_API_KEY, maybe GITHUB_TOKEN, and the addresses
 * of Temporal and the model API; the agent's shell must hold none of them, so the env
 * is built from scratch instead of deleting known-bad names. HOME and TMPDIR are the
 * worktree's private home (sandbox-state), so `~/.gitconfig`, `~/.npmrc`,
 * `~/.config/gh` and `~/.git-credentials` of the worker are not found there.
 */

/** Variables forwarded from the worker when set. Git identity is needed to commit. */
export const FORWARDED_ENV = [
  'PATH',
  'LANG',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  // Where toolchains live: version managers' shims (pyenv, nvm, rustup) find their
  // installs through these, and default to the worker's HOME, which the sandbox hides.
  'PYENV_ROOT',
  'PYENV_VERSION',
  'NVM_DIR',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'GOROOT',
  'GOPATH',
  'GOMODCACHE',
  'JAVA_HOME',
  'VIRTUAL_ENV',
] as const;

/** The agent's neutral git identity, where the worker has none of its own. */
export const DEFAULT_IDENTITY = { name: 'Issue Agent', email: 'issue-agent@localhost' } as const;

/** A credential or a service address is dropped even if a caller passes it explicitly. */
const SECRET_NAME =
  /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)|^(ANTHROPIC|GH|GITHUB|TEMPORAL|OTEL|AWS|GOOGLE|AZURE|NPM_CONFIG)_|_URL$/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function buildSandboxEnv(
  home: string,
  source: Readonly<Record<string, string | undefined>> = process.env,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: home,
    TMPDIR: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    // Constants, not forwarded: keep git and pagers non-interactive.
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_AUTHOR_NAME: DEFAULT_IDENTITY.name,
    GIT_AUTHOR_EMAIL: DEFAULT_IDENTITY.email,
    GIT_COMMITTER_NAME: DEFAULT_IDENTITY.name,
    GIT_COMMITTER_EMAIL: DEFAULT_IDENTITY.email,
  };
  for (const name of FORWARDED_ENV) {
    const value = source[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (!isSecretName(name)) env[name] = value;
  }
  return env;
}
