/**
 * Where state lives, so nothing lands in this package or in the user's work tree:
 * a run's artifacts under the target repository's common git dir (`<git-dir>/agent/`,
 * shared by its worktrees, invisible to the user's tools), and the dev server's state
 * and the downloaded Temporal CLI in the clone when run from a clone (CI and tests rely
 * on `.tools/`) or in the XDG state dir when run from an installed copy.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-root.js';

/** `<git-common-dir>/agent`: per-repository state (artifacts; worktrees by default). */
export function repoStateDir(commonDir: string): string {
  return join(commonDir, 'agent');
}

/** `<git-common-dir>/agent/artifacts`: transcripts, tool outputs, validator output. */
export function artifactsDirOf(commonDir: string): string {
  return join(repoStateDir(commonDir), 'artifacts');
}

/** A clone has its own `.git`; an installed package (npm i -g, npx) does not. */
export function runsFromClone(root: string = PROJECT_ROOT): boolean {
  return existsSync(join(root, '.git'));
}

/** `$XDG_STATE_HOME/issue-agent`, default `~/.local/state/issue-agent`. */
export function xdgStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME !== undefined && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : undefined;
  return join(base ?? join(homedir(), '.local', 'state'), 'issue-agent');
}

/** Dev server state (SQLite, log): `.temporal/` in a clone, `<xdg>/temporal` installed. */
export function devServerStateDir(env: NodeJS.ProcessEnv = process.env, root: string = PROJECT_ROOT): string {
  return runsFromClone(root) ? join(root, '.temporal') : join(xdgStateDir(env), 'temporal');
}

/** Temporal CLI download: `.tools/` in a clone, `<xdg>/tools` installed. */
export function toolsDir(env: NodeJS.ProcessEnv = process.env, root: string = PROJECT_ROOT): string {
  return runsFromClone(root) ? join(root, '.tools') : join(xdgStateDir(env), 'tools');
}
