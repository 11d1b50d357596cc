/**
 * Hides the worker's processes from the agent's shell. Scrubbing the env of the
 * child is not enough: `/proc/<worker pid>/environ` (or `/proc/$PPID/environ`)
 * would still show the worker's ANTHROPIC_API_KEY. A new PID namespace with its own
 * /proc mount shows only the command's own processes.
 *
 * Probed once per process: `unshare --pid --fork --mount-proc` (works as root),
 * then the same with `--user --map-root-user` (unprivileged user namespaces), else
 * plain bash with a logged warning. `--kill-child` makes the namespace die with its
 * unshare parent, so killing the process group on timeout/cancel kills everything.
 *
 * Limits (documented, not solved here): the shell still sees the whole filesystem
 * and the network; this is a secrecy measure for the env, not a full sandbox.
 */
import { execa } from 'execa';

export const IsolationMode = {
  PidNamespace: 'pid-namespace',
  UserPidNamespace: 'user-pid-namespace',
  None: 'none',
} as const;
export type IsolationMode = (typeof IsolationMode)[keyof typeof IsolationMode];

const PREFIX: Readonly<Record<IsolationMode, readonly string[]>> = {
  'pid-namespace': ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc'],
  'user-pid-namespace': ['unshare', '--user', '--map-root-user', '--pid', '--fork', '--kill-child', '--mount-proc'],
  none: [],
};

let probed: Promise<IsolationMode> | undefined;

async function works(prefix: readonly string[]): Promise<boolean> {
  const [file, ...args] = prefix;
  if (file === undefined) return true;
  try {
    // `test -r /proc/1/environ` also checks the fresh /proc is really mounted.
    const result = await execa(file, [...args, 'bash', '-c', 'test "$$" = 1 && test -r /proc/1/environ'], {
      reject: false,
      timeout: 5_000,
      stdin: 'ignore',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      extendEnv: false,
    });
    return result.exitCode === 0;
  } catch {
    return false;
  }
}

/** Which isolation this machine supports; cached for the life of the process. */
export function detectIsolation(warn: (message: string) => void = (m) => console.warn(m)): Promise<IsolationMode> {
  probed ??= (async () => {
    if (process.platform === 'linux') {
      if (await works(PREFIX['pid-namespace'])) return IsolationMode.PidNamespace;
      if (await works(PREFIX['user-pid-namespace'])) return IsolationMode.UserPidNamespace;
    }
    warn(
      '[tools] WARNING: unshare --pid --mount-proc is not available; bash commands run without a PID namespace, ' +
        'so /proc of the worker is visible to the agent (its env is still scrubbed).',
    );
    return IsolationMode.None;
  })();
  return probed;
}

/** The argv that runs `bash -c command` under the given isolation. */
export function isolatedBashArgv(mode: IsolationMode, command: string): { file: string; args: string[] } {
  const argv = [...PREFIX[mode], 'bash', '-c', command];
  const [file, ...args] = argv;
  return { file: file ?? 'bash', args };
}
