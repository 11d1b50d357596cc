/**
 * The base interpreter a venv runs on (`sys.base_prefix`, symlinks resolved): a venv
 * links to it rather than copying it, so the sandbox must show it read-only beside the
 * venv. Asked of the plan's venv, or of a fetched Python application's (nox's venvs are
 * made from it too).
 *
 * The answer is what a process of the repository's setup printed (the venv's `python` is
 * setup's to replace, a `.pth` it installed runs at startup), and every later sandbox
 * shows that directory: so the probe runs isolated and without `site` (`-I -S`: no `.pth`,
 * no `sitecustomize`, not the worktree on `sys.path`), and a prefix is kept only when it
 * holds a Python standard library and does not contain a directory the sandbox hides (an
 * answer of `/root` or `/` would show the worker's home to the agent).
 */
import { existsSync } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { hiddenDirs } from '../tools/sandbox-host-dirs.js';
import type { CommandRunner } from '../process/command-runner.js';
import { isInside } from '../../definition/load/path-inside.js';

/** A directory with `lib/python3.*\/os.py` (or `lib/python3.*t`), as every CPython prefix has. */
async function holdsStandardLibrary(prefix: string): Promise<boolean> {
  const lib = path.join(prefix, 'lib');
  const names = await readdir(lib).catch(() => [] as string[]);
  return names.some((name) => /^python3\.\d+t?$/.test(name) && existsSync(path.join(lib, name, 'os.py')));
}

/** The prefix is, or is an ancestor of, a directory the sandbox hides. */
function coversHidden(prefix: string, hidden: readonly string[]): boolean {
  return hidden.some((dir) => isInside(prefix, dir));
}

export async function pythonBasePrefix(options: {
  readonly runner: CommandRunner;
  /** The venv's interpreter (`<venv>/bin/python`). */
  readonly python: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Directories the sandbox hides (default: sandbox-launch's). */
  readonly hidden?: readonly string[];
}): Promise<string | undefined> {
  const probe = await options.runner.run({
    command: `'${options.python}' -I -S -c 'import sys; print(sys.base_prefix)'`,
    cwd: options.cwd,
    env: options.env,
    timeoutMs: 60_000,
  });
  const base = probe.all.trim().split('\n').pop()?.trim();
  if (probe.exitCode !== 0 || !base || !path.isAbsolute(base)) return undefined;
  const real = await realpath(base).catch(() => undefined);
  if (real === undefined || coversHidden(real, options.hidden ?? hiddenDirs())) return undefined;
  return (await holdsStandardLibrary(real)) ? real : undefined;
}
