/**
 * The `file` validator: every listed path must exist inside the worktree. Paths are
 * relative to the worktree; absolute or `..` paths, and symlinks pointing outside, are
 * refused so a definition cannot probe the worker's file system.
 */
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { ConditionResult } from '../../contracts/activities.js';
import type { JsonValue } from '../../contracts/json.js';
import { isInside } from '../../definition/load/path-inside.js';

export async function runFileValidator(options: {
  validator: string;
  worktreePath: string;
  paths: readonly string[];
  params: Readonly<Record<string, JsonValue>>;
  failurePattern?: string;
}): Promise<ConditionResult> {
  const root = await realpath(options.worktreePath);
  const extra = options.params['paths'];
  const paths = [
    ...options.paths,
    ...(Array.isArray(extra) ? extra.filter((p): p is string => typeof p === 'string') : []),
  ];
  const missing: string[] = [];
  const refused: string[] = [];
  for (const p of paths) {
    const verdict = await checkPath(root, p);
    if (verdict === 'outside') refused.push(p);
    else if (verdict === 'missing') missing.push(p);
  }
  const passed = missing.length === 0 && refused.length === 0;
  const summary = passed
    ? `all ${paths.length} expected file(s) exist`
    : [
        missing.length ? `missing: ${missing.join(', ')}` : '',
        refused.length ? `refused (outside the worktree): ${refused.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ');
  return {
    validator: options.validator,
    passed,
    summary,
    ...(passed || options.failurePattern === undefined ? {} : { failurePattern: options.failurePattern }),
    params: passed
      ? { ...options.params }
      : { ...options.params, missingFiles: missing, refusedPaths: refused, expectedPath: paths[0] ?? '' },
    unrecoverable: refused.length > 0,
  };
}

async function checkPath(root: string, path: string): Promise<'present' | 'missing' | 'outside'> {
  if (isAbsolute(path) || !isInside(root, resolve(root, path))) return 'outside';
  const target = resolve(root, path);
  const exists = await lstat(target).then(
    () => true,
    () => false,
  );
  if (!exists) return 'missing';
  const real = await realpath(target).catch(() => undefined);
  if (real === undefined) return 'missing'; // dangling symlink
  return isInside(root, real) ? 'present' : 'outside';
}
