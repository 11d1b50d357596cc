/**
 * The environment a bash command sees: a whitelist, never the worker's own env.
 * The worker holds ANTHROPIC_API_KEY and maybe GITHUB_TOKEN; the agent's shell must
 * not, so we build the env from scratch instead of deleting known-bad names.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Variables forwarded from the worker when set. Git identity is needed to commit. */
export const FORWARDED_ENV = [
  'PATH',
  'LANG',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
] as const;

const DEFAULT_IDENTITY = { name: 'Issue Agent', email: 'issue-agent@localhost' } as const;

/** A name that looks like a credential is dropped even if a caller passes it explicitly. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)|^ANTHROPIC_|^GH_|^GITHUB_/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

const homes = new Map<string, string>();

/**
 * A private HOME (and TMPDIR) per worktree, outside the worker's real home, so
 * `~/.gitconfig`, `~/.config/gh` and `~/.git-credentials` of the worker are not found,
 * and what one run writes there (e.g. global git config) cannot affect another run.
 */
export function agentHome(worktreePath: string): string {
  let home = homes.get(worktreePath);
  if (home === undefined) {
    home = mkdtempSync(path.join(os.tmpdir(), 'agent-home-'));
    homes.set(worktreePath, home);
  }
  return home;
}

export function buildSandboxEnv(
  worktreePath: string,
  source: NodeJS.ProcessEnv = process.env,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const home = agentHome(worktreePath);
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
