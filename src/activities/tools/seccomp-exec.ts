/**
 * How the seccomp filter (seccomp-filter.ts) gets onto an agent command without a native
 * Node addon: a few words put in front of the command line, `env PERL_BADLANG=0 perl -e
 * <program> <prctl number> <filter in hex> bash -c <command>`. The program sets
 * `no_new_privs`, installs the filter with prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER) and
 * execs the rest of its arguments, which then run, with every child, under the filter.
 *
 * Why perl, not python3 ctypes: `perl-base` is Essential on Debian and Ubuntu (and git
 * depends on perl), so it is there on a fresh machine and in the worker image
 * (node:20-slim has no python3); and it costs ~1.6 ms a command where python3 with
 * ctypes costs ~11 ms (measured on the same machine). Perl's own `syscall` makes the two
 * prctl calls; `pack "p"` gives the filter's address for struct sock_fprog.
 *
 * Perl's absolute path, found on the host, never through the command's PATH (a worktree
 * bin dir first on PATH must not stand in for the installer). `PERL_BADLANG=0` keeps perl
 * from warning on every command when the forwarded LANG is not installed here; the
 * program removes it again (the sandbox env never carries it: sandbox-env's whitelist).
 *
 * Where this cannot work (no perl, no seccomp in the kernel, an unknown architecture),
 * the probe says so once and commands run without the filter.
 */
import { existsSync } from 'node:fs';
import { remountPerl } from './readonly-remounts.js';
import { archTable, seccompArchOf, seccompFilter, type SeccompArch } from './seccomp-filter.js';

/** PR_SET_NO_NEW_PRIVS = 38, PR_SET_SECCOMP = 22, SECCOMP_MODE_FILTER = 2. */
export const SECCOMP_EXEC_PROGRAM = [
  'my ($nr, $filter) = (0 + shift, pack("H*", shift));',
  'delete $ENV{PERL_BADLANG};',
  'syscall($nr, 38, 1, 0, 0, 0) == 0 or die "sandbox: no_new_privs: $!\\n";',
  'syscall($nr, 22, 2, pack("S x![p] p", length($filter) / 8, $filter), 0, 0) == 0',
  '  or die "sandbox: seccomp filter: $!\\n";',
  '@ARGV or exit 0;',
  'exec { $ARGV[0] } @ARGV or die "sandbox: $ARGV[0]: $!\\n";',
].join('\n');

const SYSTEM_ENVS = ['/usr/bin/env', '/bin/env'];

/**
 * `env PERL_BADLANG=0 <system perl>`: how an installer program (this one, landlock-net's)
 * starts, both by absolute path; undefined without them.
 */
export function systemPerlWords(exists: (path: string) => boolean = existsSync): string[] | undefined {
  const perl = remountPerl(exists);
  const env = SYSTEM_ENVS.find(exists);
  return perl === undefined || env === undefined ? undefined : [env, 'PERL_BADLANG=0', perl];
}

/** The words that run what follows them under the filter; undefined where that cannot work. */
export function seccompExecArgv(
  arch: SeccompArch | undefined,
  exists: (path: string) => boolean = existsSync,
): string[] | undefined {
  const words = systemPerlWords(exists);
  if (arch === undefined || words === undefined) return undefined;
  const filter = seccompFilter(arch).toString('hex');
  return [...words, '-e', SECCOMP_EXEC_PROGRAM, String(archTable(arch).prctl), filter];
}

/** Why there is no filter here, for the worker's one warning. */
export function seccompMissingReason(arch: SeccompArch | undefined, argv: readonly string[] | undefined): string {
  if (arch === undefined) return `no seccomp filter for the ${process.arch} architecture`;
  if (argv === undefined) return 'no perl in /usr/bin to install the seccomp filter';
  return 'this kernel refused the seccomp filter';
}

/** A command that succeeds only when it runs under a seccomp filter. */
export const UNDER_FILTER_CHECK = ['grep', '-q', '^Seccomp:[[:space:]]*2', '/proc/self/status'] as const;

/** The seccomp installer, when a command run through it is under the filter here; the worker says once when not. */
export async function seccompExecHere(
  succeeds: (argv: readonly string[]) => Promise<boolean>,
  warn: (message: string) => void,
): Promise<readonly string[] | undefined> {
  const arch = seccompArchOf();
  const argv = seccompExecArgv(arch);
  if (argv !== undefined && (await succeeds([...argv, ...UNDER_FILTER_CHECK]))) return argv;
  warn(
    `[tools] WARNING: ${seccompMissingReason(arch, argv)}: agent commands can make namespaces of their own ` +
      'and reach the mount, keyring and bpf system calls (still without capabilities).',
  );
  return undefined;
}
