/**
 * The seccomp filter every agent command runs under (installed by seccomp-exec.ts right
 * before the command is exec'd, after the sandbox's own mounts are done).
 *
 * Capabilities are gone and `no_new_privs` is set, yet an unprivileged process can still
 * make a user namespace of its own, where it holds every capability again: mount, remount,
 * the whole kernel surface reachable from a namespace's root. Most kernel escapes of the
 * last years go through that door or through a few rarely used interfaces (keyrings, bpf,
 * userfaultfd, io_uring, perf). None of them is something a build, a test suite, git,
 * an editor or a debugger needs, so they fail with EPERM, as they would for a process
 * the administrator did not allow:
 *
 * - namespaces: `unshare`, `setns`, `clone` with any `CLONE_NEW*` flag (threads and forks
 *   use `clone` without one and pass); `clone3` keeps its flags in memory a filter cannot
 *   read, so it answers ENOSYS and libc falls back to `clone` (what Docker does);
 * - mounts: `mount`, `umount2`, `pivot_root`, `chroot` and the new mount API
 *   (`open_tree`, `open_tree_attr`, `move_mount`, `mount_setattr`, `fs*`);
 * - kernel attack surface: keyrings (`keyctl`, `add_key`, `request_key`: the worker's
 *   uid has its keyrings too), `bpf`, `userfaultfd` (the classic race widener),
 *   `perf_event_open`, `io_uring_*` (denied by Docker and ChromeOS for its bug record;
 *   libuv and others fall back to threads);
 * - the machine: modules, `kexec_*`, `reboot`, `swapon`/`swapoff`, `acct`, quotas, the
 *   clock, `syslog` (the kernel log holds addresses), `iopl`/`ioperm`, and
 *   `open_by_handle_at` (the "shocker" container escape). All of these need a capability
 *   the command no longer has; the filter keeps it so should one be regained.
 *
 * `ptrace` and `process_vm_*` stay allowed (gdb, strace, py-spy); so do `personality`
 * (setarch -R) and the NUMA calls. A syscall of another ABI (i386 `int 0x80` or x32 on
 * x86_64, aarch32 on arm64) could bypass a filter written in native numbers: the arch
 * check kills the process on a foreign arch, and x32 numbers get ENOSYS.
 */

/** BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h). */
const Op = { LoadAbs: 0x20, JumpEq: 0x15, JumpGe: 0x35, JumpSet: 0x45, Return: 0x06 } as const;
const Ret = { Allow: 0x7fff0000, Errno: 0x00050000, KillProcess: 0x80000000 } as const;
const EPERM = 1;
const ENOSYS = 38;
/** Offsets in struct seccomp_data: nr, arch, then args[0]'s low 32 bits (little endian). */
const Field = { Nr: 0, Arch: 4, Arg0Low: 16 } as const;
/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET (NEWTIME is clone3/unshare only). */
export const CLONE_NAMESPACE_FLAGS = 0x7e020000;
const X32_SYSCALL_BIT = 0x40000000;

export const SeccompArch = { X64: 'x64', Arm64: 'arm64' } as const;
export type SeccompArch = (typeof SeccompArch)[keyof typeof SeccompArch];

interface ArchTable {
  readonly audit: number;
  readonly prctl: number;
  readonly clone: number;
  readonly clone3: number;
  readonly x32: boolean;
  /** unshare by name: the idmapped binds (idmapped-binds.ts) make their user namespaces with it. */
  readonly denied: Readonly<Record<string, number>> & { readonly unshare: number };
}

/** The syscalls every architecture numbers alike (asm-generic, from 424 on). */
const COMMON = {
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  mount_setattr: 442,
  quotactl_fd: 443,
  open_tree_attr: 467,
} as const;

const X64: ArchTable = {
  audit: 0xc000003e,
  prctl: 157,
  clone: 56,
  clone3: 435,
  x32: true,
  denied: {
    ...COMMON,
    unshare: 272,
    setns: 308,
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    chroot: 161,
    keyctl: 250,
    add_key: 248,
    request_key: 249,
    bpf: 321,
    userfaultfd: 323,
    perf_event_open: 298,
    kexec_load: 246,
    kexec_file_load: 320,
    init_module: 175,
    finit_module: 313,
    delete_module: 176,
    open_by_handle_at: 304,
    acct: 163,
    quotactl: 179,
    reboot: 169,
    swapon: 167,
    swapoff: 168,
    settimeofday: 164,
    clock_settime: 227,
    clock_adjtime: 305,
    syslog: 103,
    iopl: 172,
    ioperm: 173,
  },
};

const ARM64: ArchTable = {
  audit: 0xc00000b7,
  prctl: 167,
  clone: 220,
  clone3: 435,
  x32: false,
  denied: {
    ...COMMON,
    unshare: 97,
    setns: 268,
    mount: 40,
    umount2: 39,
    pivot_root: 41,
    chroot: 51,
    keyctl: 219,
    add_key: 217,
    request_key: 218,
    bpf: 280,
    userfaultfd: 282,
    perf_event_open: 241,
    kexec_load: 104,
    kexec_file_load: 294,
    init_module: 105,
    finit_module: 273,
    delete_module: 106,
    open_by_handle_at: 265,
    acct: 89,
    quotactl: 60,
    reboot: 142,
    swapon: 224,
    swapoff: 225,
    settimeofday: 170,
    clock_settime: 112,
    clock_adjtime: 266,
    syslog: 116,
  },
};

export function archTable(arch: SeccompArch): ArchTable {
  switch (arch) {
    case SeccompArch.X64:
      return X64;
    case SeccompArch.Arm64:
      return ARM64;
  }
}

/** Node's name for this machine, when the filter knows its syscall numbers. */
export function seccompArchOf(nodeArch: string = process.arch): SeccompArch | undefined {
  return Object.values(SeccompArch).find((a) => a === nodeArch);
}

type Target = 'allow' | 'eperm' | 'enosys' | 'kill' | 'clone' | 'next';
interface Insn {
  readonly code: number;
  readonly k: number;
  readonly jt?: Target;
  readonly jf?: Target;
}

/** The filter as struct sock_filter[] in the machine's (little-endian) byte order. */
export function seccompFilter(arch: SeccompArch): Buffer {
  const t = archTable(arch);
  const insns: Insn[] = [
    { code: Op.LoadAbs, k: Field.Arch },
    { code: Op.JumpEq, k: t.audit, jt: 'next', jf: 'kill' },
    { code: Op.LoadAbs, k: Field.Nr },
    ...(t.x32 ? [{ code: Op.JumpGe, k: X32_SYSCALL_BIT, jt: 'enosys', jf: 'next' } as const] : []),
    ...Object.values(t.denied).map((nr) => ({ code: Op.JumpEq, k: nr, jt: 'eperm', jf: 'next' }) as const),
    { code: Op.JumpEq, k: t.clone3, jt: 'enosys', jf: 'next' },
    { code: Op.JumpEq, k: t.clone, jt: 'clone', jf: 'allow' },
  ];
  const labels: Record<Exclude<Target, 'next'>, Insn[]> = {
    clone: [
      { code: Op.LoadAbs, k: Field.Arg0Low },
      { code: Op.JumpSet, k: CLONE_NAMESPACE_FLAGS, jt: 'eperm', jf: 'allow' },
    ],
    allow: [{ code: Op.Return, k: Ret.Allow }],
    eperm: [{ code: Op.Return, k: Ret.Errno | EPERM }],
    enosys: [{ code: Op.Return, k: Ret.Errno | ENOSYS }],
    kill: [{ code: Op.Return, k: Ret.KillProcess }],
  };
  const at: Partial<Record<Target, number>> = {};
  const program = [...insns];
  for (const [label, block] of Object.entries(labels)) {
    at[label as Target] = program.length;
    program.push(...block);
  }
  const out = Buffer.alloc(program.length * 8);
  program.forEach((insn, pc) => {
    const jump = (target: Target | undefined): number => {
      // Forward only, and short: the whole program is ~50 instructions (an 8-bit offset).
      return target === undefined || target === 'next' ? 0 : (at[target] ?? 0) - pc - 1;
    };
    out.writeUInt16LE(insn.code, pc * 8);
    out.writeUInt8(jump(insn.jt), pc * 8 + 2);
    out.writeUInt8(jump(insn.jf), pc * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, pc * 8 + 4);
  });
  return out;
}
