/**
 * What the worker's machine offers the setups the registry plans (PythonTools): the
 * Python interpreter venvs and fetched Python applications are made from (`python3` on
 * PATH), whether uv is on PATH, and a probe of that interpreter's pip, run only when a
 * setup asks for it (a Python project without uv: the probe is a process) and at most once.
 */
import type { PythonTools } from '../../definition/ecosystems/ecosystem.js';
import { onPath } from './package-manager-tool.js';
import type { SetupProcessRunner } from './setup-process.js';

export function setupHost(options: {
  /** The worker's environment: its PATH is searched. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly probe: SetupProcessRunner;
  /** The environment the probe runs with (setup's, before any tool is fetched). */
  readonly probeEnv: Readonly<Record<string, string>>;
  readonly cwd: string;
}): PythonTools {
  const pathVar = options.env['PATH'] ?? '';
  const python = onPath('python3', pathVar) ?? onPath('python', pathVar) ?? 'python3';
  let pip: Promise<string | undefined> | undefined;
  return {
    python,
    uv: onPath('uv', pathVar) !== undefined,
    pipVersion: () =>
      (pip ??= options.probe
        .run({ command: `'${python}' -m pip --version`, cwd: options.cwd, env: options.probeEnv, timeoutMs: 60_000 })
        .then((result) => (result.exitCode === 0 ? result.output : undefined))),
  };
}
