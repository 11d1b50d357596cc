/**
 * What the worker's machine offers the setups the registry plans (PythonTools): the
 * Python interpreter venvs and fetched Python applications are made from (`python3` on
 * PATH), whether uv is on PATH, and a probe of that interpreter's pip, run only when a
 * setup asks for it (a Python project without uv: the probe is a process) and at most once.
 *
 * A version manager's shim (pyenv's `~/.pyenv/shims/python3`) is resolved to the
 * interpreter it runs here: setup runs in the sandbox, where the shims dir is read-only,
 * and pyenv's `-m pip install` hook ends every install with a failed `pyenv rehash`.
 */
import path from 'node:path';
import type { PythonTools } from '../../definition/ecosystems/ecosystem.js';
import { onPath } from './package-manager-tool.js';
import type { CommandRunner } from '../process/command-runner.js';

const SHIM_DIR = 'shims';

async function throughShim(
  shim: string,
  options: {
    readonly probe: CommandRunner;
    readonly probeEnv: Readonly<Record<string, string>>;
    readonly cwd: string;
  },
): Promise<string> {
  if (path.basename(path.dirname(shim)) !== SHIM_DIR) return shim;
  const result = await options.probe.run({
    command: `'${shim}' -I -S -c 'import sys; print(sys.executable)'`,
    cwd: options.cwd,
    env: options.probeEnv,
    timeoutMs: 60_000,
  });
  const real = result.all.trim().split('\n').pop()?.trim() ?? '';
  // Unresolved (no version selected, a broken shim): the shim, whose own error says why.
  return result.exitCode === 0 && path.isAbsolute(real) ? real : shim;
}

export async function setupHost(options: {
  /** The worker's environment: its PATH is searched. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly probe: CommandRunner;
  /** The environment the probe runs with (setup's, before any tool is fetched). */
  readonly probeEnv: Readonly<Record<string, string>>;
  readonly cwd: string;
}): Promise<PythonTools> {
  const pathVar = options.env['PATH'] ?? '';
  const found = onPath('python3', pathVar) ?? onPath('python', pathVar);
  const python = found === undefined ? 'python3' : await throughShim(found, options);
  let pip: Promise<string | undefined> | undefined;
  return {
    python,
    uv: onPath('uv', pathVar) !== undefined,
    pipVersion: () =>
      (pip ??= options.probe
        .run({ command: `'${python}' -m pip --version`, cwd: options.cwd, env: options.probeEnv, timeoutMs: 60_000 })
        .then((result) => (result.exitCode === 0 ? result.all : undefined))),
  };
}
