/**
 * Idmapped bind mounts: how a root worker's agent runs as an unprivileged user and can
 * still write its worktree.
 *
 * The worktree, the agent's HOME and the shared git dir's holes are owned by root on
 * disk (the worker made them, and the user's own git, also root, keeps using them).
 * An agent command that ran as root could, with a capability regained or a kernel
 * interface that trusts uid 0, reach the host; one that runs as `nobody` cannot write
 * root's files. An idmapped mount (Linux 5.12+) solves both: the sandbox binds each
 * directory through a user namespace whose only mapping is `<the directory's owner> →
 * <sandbox uid>` (root, or the user who owns the repository), so inside that mount the
 * owner's files are shown as, and written as if owned by, the sandbox user, while on
 * disk nothing changes owner (files the agent creates are the owner's, as they would be
 * if the owner wrote them). Everything else of the host stays out of reach.
 *
 * util-linux learned `X-mount.idmap` only in 2.39 (Debian 12 ships 2.38), so the system
 * calls are made by this small perl program (perl as in seccomp-exec.ts: Essential on
 * Debian, in the worker image, which has no python3, and ~2 ms a start where the python3
 * with ctypes it replaces took ~13), run by the prelude as root in the sandbox's mount
 * namespace, with an empty environment, before it drops to the sandbox user. open_tree
 * (428), move_mount (429) and mount_setattr (442) have one number on every architecture;
 * unshare does not, so the prelude passes it (seccomp-filter's table for this machine).
 *
 * Arguments: `<unshare nr> <uid> <gid>`, then one `<rw|ro>:<fd>:<target>` per bind, in
 * order; the source is a descriptor the prelude opened before anything was hidden. Any
 * failure exits 32 naming the target: a command never runs with a bind missing. Perl's
 * `syscall` passes a number as a number and a string as its address: descriptors read
 * from the arguments are made numbers (`0 +`) first, and the empty path is a variable.
 */
/** Who a root worker's commands run as, and what makes their idmapped binds (the program below). */
export interface SandboxUser {
  readonly uid: number;
  /** The system perl that runs the binds program. */
  readonly perl: string;
  /** unshare(2)'s number on this architecture (seccomp-filter's table). */
  readonly unshareNr: number;
}

export const IDMAPPED_BINDS_PROGRAM = [
  'my ($unshare, $uid, $gid) = (0 + shift, 0 + shift, 0 + shift);',
  'my $none = "";',
  'sub fail { my $why = "$!"; print STDERR "sandbox: $_[0]: $why\\n"; exit 32; }',
  'my (%userns, @kept);',
  '# A user namespace whose only mapping is: owner of the directory -> the sandbox user.',
  'sub userns {',
  '  my ($owner, $group) = @_;',
  '  return $userns{"$owner:$group"} if exists $userns{"$owner:$group"};',
  '  pipe(my $ready_r, my $ready_w) and pipe(my $done_r, my $done_w) or fail("pipe");',
  '  my $pid = fork();',
  '  defined $pid or fail("fork");',
  '  if ($pid == 0) {',
  '    my $ok = syscall($unshare, 0x10000000) == 0;',
  '    syswrite($ready_w, $ok ? "1" : "0");',
  '    sysread($done_r, my $done, 1);',
  '    exit 0;',
  '  }',
  '  sysread($ready_r, my $ready, 1);',
  '  $ready eq "1" or fail("a user namespace for the idmapped binds");',
  '  for my $map (["uid_map", "$owner $uid 1"], ["gid_map", "$group $gid 1"]) {',
  '    open(my $f, ">", "/proc/$pid/$map->[0]") or fail($map->[0]);',
  '    syswrite($f, $map->[1]) or fail($map->[0]);',
  '    close($f);',
  '  }',
  '  open(my $ns, "<", "/proc/$pid/ns/user") or fail("the user namespace of the idmapped binds");',
  '  push @kept, $ns;',
  '  syswrite($done_w, "1");',
  '  waitpid($pid, 0);',
  '  return $userns{"$owner:$group"} = fileno($ns);',
  '}',
  'sub mkpath {',
  '  my $at = "";',
  '  for my $part (grep { length } split(m{/}, $_[0])) {',
  '    $at .= "/$part";',
  '    -d $at or mkdir($at) or -d $at or fail("mkdir $at");',
  '  }',
  '}',
  '# open_tree(fd, "", AT_EMPTY_PATH | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC); mount_setattr with',
  '# MOUNT_ATTR_IDMAP (and RDONLY); move_mount(tree, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH).',
  'sub bind_idmapped {',
  '  my ($source, $target, $ro) = @_;',
  '  my @st = stat("/proc/self/fd/$source") or fail("stat " . $target);',
  '  my $tree = syscall(428, $source, $none, 0x1000 | 0x1 | 0x80000);',
  '  $tree >= 0 or fail("open_tree " . $target);',
  '  my $attr = pack("Q4", 0x100000 | ($ro ? 0x1 : 0), 0, 0, userns($st[4], $st[5]));',
  '  syscall(442, $tree, $none, 0x1000, $attr, length($attr)) == 0 or fail("idmapped mount of " . $target .',
  '    " (its filesystem may not support idmapped mounts; " .',
  '    "ISSUE_AGENT_SANDBOX_UID=0 on the worker runs agent commands as root without capabilities instead)");',
  '  mkpath($target);',
  '  syscall(429, $tree, $none, -100, $target, 0x4) == 0 or fail("move_mount " . $target);',
  '}',
  'sub searchable {',
  '  my ($mode, $owner, $group) = @_[2, 4, 5];',
  '  return ($mode & 01) || ($owner == $uid && ($mode & 0100)) || ($group == $gid && ($mode & 010));',
  '}',
  'my %shown;',
  'for my $spec (@ARGV) {',
  '  my ($mode, $fd, $target) = split(/:/, $spec, 3);',
  '  # A root-only directory on the way (a 0700 home or temp dir) is shown read-only,',
  '  # idmapped too, so the sandbox user can reach what is bound below it.',
  '  my @parts = grep { length } split(m{/}, $target);',
  '  pop @parts;',
  '  for my $i (1 .. @parts) {',
  '    my $up = "/" . join("/", @parts[0 .. $i - 1]);',
  '    next if $shown{$up} || !-d $up || searchable(stat($up));',
  '    $shown{$up} = 1;',
  '    sysopen(my $dir, $up, 0) or fail("open " . $up);',
  '    bind_idmapped(fileno($dir), $up, 1);',
  '    close($dir);',
  '  }',
  '  bind_idmapped(0 + $fd, $target, $mode eq "ro");',
  '}',
].join('\n');
