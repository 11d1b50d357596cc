/**
 * PATH without its relative entries, for every process the harness starts by name in a
 * directory the agent writes (its worktree): the sandbox's own launcher (`setpriv`,
 * `unshare`, `bash`) and harness git. A relative entry (`node_modules/.bin`, `.`, or the
 * empty one a trailing `:` makes) is looked up from the child's working directory, so
 * the agent's planted `setpriv` would start on the host, outside every namespace.
 */
import path from 'node:path';

export function absolutePathEntries(pathVar: string | undefined): string | undefined {
  if (pathVar === undefined) return undefined;
  return pathVar
    .split(':')
    .filter((entry) => entry !== '' && path.isAbsolute(entry))
    .join(':');
}
