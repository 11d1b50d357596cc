/**
 * The one path-containment check: is a path the directory itself or something under it?
 * Sandbox views, setup scopes and the editor's path guard all ask it. Only `..` itself or
 * a first segment of `..` leaves the parent: a child named `..cache` is inside (a test of
 * `rel.startsWith('..')` would call it outside).
 *
 * Lexical only: symlinks are not resolved (callers that need that pass real paths).
 * It lives beside `read-optional.ts` on the lowest floor that may use `node:path`, so
 * definition loading and activities share it.
 */
import path from 'node:path';

/** True when `child` is `parent` or lies under it (both resolved against the cwd). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return !(rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel));
}

/** True when `child` lies under `parent` and is not `parent` itself. */
export function isStrictlyInside(parent: string, child: string): boolean {
  return path.relative(parent, child) !== '' && isInside(parent, child);
}
