/**
 * How an ecosystem's tools say, with an ordinary exit code, that a command on the base
 * commit could not run at all (no package.json, an interpreter not installed, a
 * dependency not resolvable offline) rather than that tests failed: the preflight
 * (activities/preflight/could-not-run.ts) stops the run on such a sign instead of
 * recording the base as failing, and names the remedy.
 */

/** What would let the command run: install a program, point the config at another command, fetch during setup. */
export const Remedy = {
  Install: 'install',
  OtherCommand: 'other-command',
  FetchInSetup: 'fetch-in-setup',
  /** Gradle: the environment phase fetches neither its distribution nor a build's dependencies yet. */
  GradleOffline: 'gradle-offline',
  /** Jest: the worktree's path has a `.git` segment, and Jest ignores every such path. */
  WorktreeRoot: 'worktree-root',
  /** The project asks for a newer Maven (the version in the sign's group) than the host has. */
  NewerMaven: 'newer-maven',
} as const;
export type Remedy = (typeof Remedy)[keyof typeof Remedy];

export interface CouldNotRunSign {
  /** Matched line by line; group 1, when present, is the program that was not found. */
  readonly match: RegExp;
  /** What was seen, in words: `npm found no package.json here`. */
  readonly seen: string;
  readonly remedy: Remedy;
}
