/**
 * Landlock's network rules on a command (Linux 6.7+, Landlock ABI 4): connect(2) over TCP
 * succeeds only to the ports given (setup-connect-ports.ts); any other port, on any host,
 * fails with EACCES, and so does connecting to an abstract unix socket of a process outside
 * the command (Linux 6.12+, ABI 6). The restriction holds for the command and every child,
 * and nothing in the sandbox can lift it.
 *
 * Put in front of the command line the way the seccomp installer is (seccomp-exec.ts):
 * `env PERL_BADLANG=0 perl -e <program> <prctl number> <ports> <the rest>`. The program
 * sets no_new_privs (Landlock needs it without CAP_SYS_ADMIN), makes a ruleset that
 * handles TCP connect only (landlock_create_ruleset, 444), adds one rule per port
 * (landlock_add_rule, 445, LANDLOCK_RULE_NET_PORT), restricts itself
 * (landlock_restrict_self, 446; the same numbers on every architecture) and execs the
 * rest. Whether the kernel has network rules is probed once per worker (process-isolation):
 * where it has none, the worker says so once and the words are not put in front; where it
 * has them, a rule that cannot be made stops the command (it never runs unrestricted).
 */
import { existsSync } from 'node:fs';
import { archTable, type SeccompArch } from './seccomp-filter.js';
import { remountPerl } from './readonly-remounts.js';
import { systemPerlWords } from './seccomp-exec.js';

/**
 * struct landlock_ruleset_attr {u64 fs; u64 net; u64 scoped}, struct landlock_net_port_attr
 * {u64 access; u64 port}; CONNECT_TCP = 2, SCOPE_ABSTRACT_UNIX_SOCKET = 1 (ABI 6: the host's
 * network namespace holds abstract sockets, containerd-shim's among them; before ABI 6 the
 * ports alone).
 */
export const LANDLOCK_NET_PROGRAM = [
  'my ($nr, $ports) = (0 + shift, shift);',
  'delete $ENV{PERL_BADLANG};',
  'syscall($nr, 38, 1, 0, 0, 0) == 0 or die "sandbox: no_new_privs: $!\\n";',
  'my $attr = pack("QQQ", 0, 2, 1);',
  'my $ruleset = syscall(444, $attr, 24, 0);',
  'if ($ruleset < 0) { $attr = pack("QQ", 0, 2); $ruleset = syscall(444, $attr, 16, 0); }',
  '$ruleset >= 0 or die "sandbox: landlock: $!\\n";',
  'for my $port (split /,/, $ports) {',
  '  my $rule = pack("QQ", 2, $port);',
  '  syscall(445, $ruleset, 2, $rule, 0) == 0 or die "sandbox: landlock port $port: $!\\n";',
  '}',
  'syscall(446, $ruleset, 0) == 0 or die "sandbox: landlock: $!\\n";',
  'exec { $ARGV[0] } @ARGV or die "sandbox: $ARGV[0]: $!\\n";',
].join('\n');

/** Exits 0 when this kernel's Landlock has network rules (ABI 4 or later). */
const ABI_PROBE = 'my $abi = syscall(444, 0, 0, 1); exit($abi >= 4 ? 0 : 1);';

/** The words that run what follows them allowed to connect only to `ports`; undefined where that cannot work. */
export function landlockNetArgv(
  arch: SeccompArch | undefined,
  ports: readonly number[],
  exists: (path: string) => boolean = existsSync,
): string[] | undefined {
  const words = systemPerlWords(exists);
  if (arch === undefined || words === undefined) return undefined;
  return [...words, '-e', LANDLOCK_NET_PROGRAM, String(archTable(arch).prctl), ports.join(',')];
}

/** The probe's argv (exit 0: network rules work here); undefined without a system perl. */
export function landlockNetProbeArgv(exists: (path: string) => boolean = existsSync): string[] | undefined {
  const perl = remountPerl(exists);
  return perl === undefined ? undefined : [perl, '-e', ABI_PROBE];
}

/** Whether network rules work here; the worker says once what it means when they do not. */
export async function landlockNetHere(
  succeeds: (argv: readonly string[]) => Promise<boolean>,
  warn: (message: string) => void,
): Promise<boolean> {
  const probe = landlockNetProbeArgv();
  if (probe !== undefined && (await succeeds(probe))) return true;
  warn(
    '[tools] WARNING: no Landlock network rules here (Linux 6.7+ with Landlock, and /usr/bin/perl): ' +
      "environment setup can connect to any port, this host's Temporal frontend included.",
  );
  return false;
}
