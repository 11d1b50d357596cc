/**
 * The base interpreter a venv runs on (`sys.base_prefix`, symlinks resolved): a venv
 * links to it rather than copying it, so the sandbox must show it read-only beside the
 * venv. Asked of the plan's venv, or of a fetched Python application's (nox's venvs are
 * made from it too).
 */
import { realpath } from 'node:fs/promises';
import type { SetupProcessRunner } from './setup-process.js';

export async function pythonBasePrefix(options: {
  readonly runner: SetupProcessRunner;
  /** The venv's interpreter (`<venv>/bin/python`). */
  readonly python: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}): Promise<string | undefined> {
  const probe = await options.runner.run({
    command: `'${options.python}' -c 'import sys; print(sys.base_prefix)'`,
    cwd: options.cwd,
    env: options.env,
    timeoutMs: 60_000,
  });
  const base = probe.output.trim().split('\n').pop();
  if (probe.exitCode !== 0 || !base) return undefined;
  return realpath(base).catch(() => base);
}
