/**
 * What the agent's processes run inside, probed once per worker process. Best first:
 *
 * - `namespaces` (root) / `user-namespaces` (unprivileged user namespaces): a PID
 *   namespace (the worker's /proc and its environ are invisible; when the command's
 *   init exits or is killed, the kernel kills every process left in it, detached or
 *   not), a mount namespace (everything read-only but the worktree, its git dir and the
 *   private HOME; the worker's HOME and /tmp covered: see sandbox-prelude) and, when
 *   the policy says `network: none`, a network namespace with only loopback (no
 *   Temporal, no GitHub, no model API, no package registry).
 * - `pid-namespace` / `user-pid-namespace`: the PID namespace only (filesystem and
 *   network are the host's).
 * - `none`: plain bash in its own process group (logged as a warning).
 *
 * A root worker's commands run as the sandbox user (sandbox-policy: `nobody` by
 * default), never as root: the binds are idmapped (idmapped-binds.ts). Where that does
 * not work (no idmapped mounts, no perl), they run as root without any capability,
 * and the worker says so once.
 *
 * In every mode `setpriv --pdeathsig KILL` (when available) ties the sandbox to the
 * worker: if the worker dies, its unshare child gets SIGKILL and, through
 * `--kill-child`, the whole namespace goes with it. And in every mode the command runs
 * under a seccomp filter (seccomp-filter.ts: no namespaces, mounts, keyrings, bpf, ...)
 * where it can be installed; where not, the worker says so once. Inside such a filter (this
 * harness's own tests run by a validator) every namespace probe fails, and the inner
 * harness falls back to `none`, still inside the outer sandbox.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sharedSpawner, type SpawnRequest, type SpawnResult } from '../process/spawner/process-spawner.js';
import type { SandboxUser } from './idmapped-binds.js';
import { PRELUDE, preludeArgs, type SandboxView } from './sandbox-prelude.js';
import { remountPerl } from './readonly-remounts.js';
import { seccompExecHere } from './seccomp-exec.js';
import { archTable, seccompArchOf } from './seccomp-filter.js';
import { landlockNetHere } from './landlock-net.js';
import { filteredCommand, installers } from './command-installers.js';
import { sandboxUidFromEnv, SANDBOX_UID_ENV } from './sandbox-policy.js';

export const IsolationMode = {
  Namespaces: 'namespaces',
  UserNamespaces: 'user-namespaces',
  PidNamespace: 'pid-namespace',
  UserPidNamespace: 'user-pid-namespace',
  None: 'none',
} as const;
export type IsolationMode = (typeof IsolationMode)[keyof typeof IsolationMode];

export interface Isolation {
  readonly mode: IsolationMode;
  /** A private network namespace works here (used when the policy asks for `none`). */
  readonly privateNetwork: boolean;
  /** `setpriv --pdeathsig` is available. */
  readonly pdeathsig: boolean;
  /**
   * The host uid commands run as (a root worker's `namespaces` mode) and what makes the
   * idmapped binds; undefined: the worker's uid.
   */
  readonly sandboxUser?: SandboxUser;
  /** The words that install the seccomp filter before the command (seccomp-exec); undefined: none here. */
  readonly seccomp?: readonly string[];
  /** Landlock's network rules work here (landlock-net): a command can be held to some ports. */
  readonly landlockNet?: boolean;
}

const USER = ['--user', '--map-root-user'];
const PID = ['--pid', '--fork', '--kill-child', '--mount-proc'];

function unshareArgs(mode: IsolationMode, net: boolean): string[] {
  switch (mode) {
    case 'namespaces':
      return ['unshare', '--mount', ...PID, ...(net ? ['--net'] : [])];
    case 'user-namespaces':
      return ['unshare', ...USER, '--mount', ...PID, ...(net ? ['--net'] : [])];
    case 'pid-namespace':
      return ['unshare', ...PID];
    case 'user-pid-namespace':
      return ['unshare', ...USER, ...PID];
    case 'none':
      return [];
  }
}

function hasMounts(mode: IsolationMode): boolean {
  return mode === IsolationMode.Namespaces || mode === IsolationMode.UserNamespaces;
}

/**
 * A probe that ran out of time says nothing about the machine: on a loaded host (a CI
 * box running many workers) `unshare` plus the prelude can take seconds. It is run
 * again with more time, so a slow moment never leaves a worker with weaker isolation
 * for the rest of its life; only an answer (exit status) counts.
 */
const PROBE_TIME_LIMITS_MS = [10_000, 30_000, 90_000] as const;

type ProbeRun = (request: SpawnRequest) => Promise<Pick<SpawnResult, 'exitCode' | 'timedOut'>>;

/** Whether `argv` exits 0; exported with its spawn port for the retry test. */
export async function probeSucceeds(argv: readonly string[], run: ProbeRun): Promise<boolean> {
  const [file, ...args] = argv;
  if (file === undefined) return false;
  for (const timeoutMs of PROBE_TIME_LIMITS_MS) {
    try {
      const r = await run({
        file,
        args,
        cwd: os.tmpdir(),
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
        group: true,
        timeoutMs,
        killGroupAfterExit: true,
      });
      if (!r.timedOut) return r.exitCode === 0;
    } catch {
      return false;
    }
  }
  return false;
}

const succeeds = (argv: readonly string[]): Promise<boolean> =>
  probeSucceeds(argv, (request) => sharedSpawner().run(request));

/** Runs the real prelude on a scratch dir: inside writable, outside read-only, own PID 1. */
async function probe(mode: IsolationMode, net: boolean, user?: SandboxView['user']): Promise<boolean> {
  // The command is the namespace's init, or (with the prelude) its child.
  // /proc is the namespace's when it names this shell by the same pid as the shell does.
  const check = '{ test "$$" = 1 || test "$PPID" = 1; } && read -r p _ < /proc/self/stat && test "$p" = "$$"';
  if (!hasMounts(mode)) return succeeds([...unshareArgs(mode, false), 'bash', '-c', check]);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-probe-'));
  try {
    const view: SandboxView = { writable: [dir], readOnly: [], hidden: [], protectedPaths: [], user };
    // As the sandbox user: its own uid, and the root-owned scratch dir writable (idmapped).
    const asUser = user === undefined ? '' : ` && test "$(id -u)" = ${user.uid}`;
    const command = `${check}${asUser} && touch in && ! touch /etc/.issue-agent-probe 2>/dev/null`;
    const argv = [...unshareArgs(mode, net), 'bash', '-c', PRELUDE, 'sandbox', ...preludeArgs(view, command)];
    return await succeeds(['bash', '-c', `cd "$1" && shift && exec "$@"`, 'probe', dir, ...argv]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The uid a root worker's commands run as, when dropping to it works here. */
async function sandboxUser(net: boolean, warn: (message: string) => void): Promise<SandboxView['user']> {
  const uid = sandboxUidFromEnv();
  if (uid === 0) {
    warn(`[tools] WARNING: ${SANDBOX_UID_ENV}=0: agent commands run as root (without capabilities).`);
    return undefined;
  }
  // The system perl, never through PATH; unshare's number from the seccomp table of this architecture.
  const perl = remountPerl(existsSync);
  const arch = seccompArchOf();
  const user =
    perl === undefined || arch === undefined ? undefined : { uid, perl, unshareNr: archTable(arch).denied.unshare };
  if (user !== undefined && (await probe(IsolationMode.Namespaces, net, user))) return user;
  warn(
    `[tools] WARNING: agent commands run as root (without capabilities): running them as uid ${uid} needs ` +
      'idmapped mounts (Linux 5.12+), /usr/bin/perl and a seccomp table for this architecture (x86_64, aarch64) here.',
  );
  return undefined;
}

let probed: Promise<Isolation> | undefined;

/** Which isolation this machine supports; cached for the life of the process. */
export function detectIsolation(warn: (message: string) => void = (m) => console.warn(m)): Promise<Isolation> {
  probed ??= (async () => {
    const mode = await detectMode(warn);
    const seccomp = process.platform === 'linux' ? await seccompExecHere(succeeds, warn) : undefined;
    const landlockNet = process.platform === 'linux' && (await landlockNetHere(succeeds, warn));
    return { ...mode, ...(seccomp === undefined ? {} : { seccomp }), landlockNet };
  })();
  return probed;
}

async function detectMode(warn: (message: string) => void): Promise<Isolation> {
  const pdeathsig = await succeeds(['setpriv', '--pdeathsig', 'KILL', 'true']);
  if (process.platform === 'linux') {
    for (const mode of [IsolationMode.Namespaces, IsolationMode.UserNamespaces]) {
      for (const privateNetwork of [true, false]) {
        if (!(await probe(mode, privateNetwork))) continue;
        if (!privateNetwork)
          warn('[tools] WARNING: no private network namespace here; the agent shell uses the host network.');
        const user = mode === IsolationMode.Namespaces ? await sandboxUser(privateNetwork, warn) : undefined;
        return { mode, privateNetwork, pdeathsig, ...(user === undefined ? {} : { sandboxUser: user }) };
      }
    }
    for (const mode of [IsolationMode.PidNamespace, IsolationMode.UserPidNamespace]) {
      if (await probe(mode, false)) {
        warn('[tools] WARNING: no mount namespace here; agent commands can write outside the worktree.');
        return { mode, privateNetwork: false, pdeathsig };
      }
    }
  }
  warn(
    '[tools] WARNING: unshare is not available; agent commands run without namespaces: /proc of the worker, ' +
      'the whole filesystem and the network are reachable (the environment is still scrubbed).',
  );
  return { mode: IsolationMode.None, privateNetwork: false, pdeathsig };
}

/** The argv that runs `command` in the sandbox; `view` is used where mounts are available. */
export function isolatedArgv(
  isolation: Isolation,
  options: {
    readonly command: string;
    readonly view: SandboxView;
    readonly privateNetwork: boolean;
    /** The only TCP ports the command may connect to (a networked setup); undefined: any. */
    readonly connectPorts?: readonly number[];
  },
): { file: string; args: string[] } {
  const net = options.privateNetwork && isolation.privateNetwork;
  const perl = options.view.remountPerl ?? remountPerl(existsSync);
  const view: SandboxView = {
    ...options.view,
    ...(isolation.sandboxUser === undefined ? {} : { user: isolation.sandboxUser }),
    ...(perl === undefined ? {} : { remountPerl: perl }),
  };
  const words = installers(isolation, options.connectPorts);
  const inner = hasMounts(isolation.mode)
    ? ['bash', '-c', PRELUDE, 'sandbox', ...preludeArgs(view, filteredCommand(words, options.command))]
    : [...words, 'bash', '-c', options.command];
  const argv = [
    ...(isolation.pdeathsig ? ['setpriv', '--pdeathsig', 'KILL'] : []),
    ...unshareArgs(isolation.mode, net),
    ...inner,
  ];
  const [file, ...args] = argv;
  return { file: file ?? 'bash', args };
}

/** True when the filesystem view (read-only root, hidden HOME) is enforced. */
export function enforcesFilesystem(isolation: Isolation): boolean {
  return hasMounts(isolation.mode);
}
