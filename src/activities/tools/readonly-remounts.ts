/**
 * Making many mounts read-only in one process. The sandbox prelude turns every mount it
 * inherited read-only (the host's `/`, `/sys` with each cgroup hierarchy, ...): one
 * `mount -o remount,bind,ro` process each was ~1.7 ms apiece and ~25 of them on a
 * container host, a third of a sandbox launch, and every agent command and every harness
 * git call in an agent's worktree launches one.
 *
 * So the prelude hands the whole list to this perl program, which makes one
 * mount_setattr(2) call per path with MOUNT_ATTR_RDONLY set and nothing cleared: unlike a
 * bind remount, it changes only that flag, so a mount whose nosuid/nodev/noexec the
 * kernel locked (a user namespace's inherited mounts) still turns read-only. Perl as in
 * seccomp-exec.ts (Essential on Debian, ~1.6 ms a start; never through PATH). A path that
 * fails is skipped, as the remount loop did (`|| true`: a mount point hidden under ours,
 * one gone meanwhile); what must be read-only is checked afterwards by the prelude.
 * Without the call (Linux before 5.12: ENOSYS, or a seccomp policy's EPERM on the first
 * path) it exits 3 and the prelude falls back to one mount(8) per path.
 */

/**
 * `syscall(442, AT_FDCWD, path, 0, struct mount_attr { attr_set = MOUNT_ATTR_RDONLY },
 * sizeof)`: 442 is mount_setattr on every Linux architecture (the unified numbering).
 */
export const READONLY_REMOUNTS_PROGRAM = [
  'my $attr = pack("Q4", 1, 0, 0, 0);',
  'my $first = 1;',
  'for my $path (@ARGV) {',
  '  my $ok = syscall(442, -100, $path, 0, $attr, length($attr)) == 0;',
  '  exit 3 if !$ok && $first && ($!{ENOSYS} || $!{EPERM});',
  '  $first = 0;',
  '}',
].join('\n');

const SYSTEM_PERLS = ['/usr/bin/perl', '/bin/perl'];

/** The perl the prelude runs the program with; undefined: one mount(8) per path. */
export function remountPerl(exists: (path: string) => boolean): string | undefined {
  return SYSTEM_PERLS.find(exists);
}
