/**
 * The shell prelude that builds the agent's filesystem view inside a fresh mount
 * namespace (run by `unshare --mount ...`, so nothing here affects the host):
 *
 * 1. open a descriptor on every directory the command may use (worktree, its git dir,
 *    its private HOME), before anything is hidden;
 * 2. remount every inherited mount read-only (except /proc, /sys, /dev);
 * 3. cover the worker's secrets with empty tmpfs: its HOME (~/.gitconfig, ~/.npmrc,
 *    ~/.config/gh, the harness state and snapshots), /tmp, /var/tmp, /dev/shm;
 * 4. bind the opened directories back at their paths, writable (or read-only for a
 *    read-only step), and bind the protected git files (config, hooks, worktree
 *    pointers) read-only over themselves. Each process costs ~2 ms of CPU and a run
 *    builds several sandboxes, so: one `mkdir -p` for every missing mount point not
 *    inside another bind, and `mount -o bind,ro` (util-linux ≥ 2.27 remounts read-only
 *    itself) where read-only is wanted; a writable bind of a directory whose mount was
 *    just made read-only still needs its own `remount,bind,rw`, since `-o bind,rw`
 *    keeps the source's read-only flag. Git replaces `config` by a rename, so another
 *    run of the same repository may swap it between the bind and the read-only remount:
 *    tried again (20 times, 50 ms apart), then the command fails rather than run with
 *    the file writable. Whatever mount(8) reported, a protected path counts as done only
 *    once the shell's own `[ -w ]` says it is not writable (access(2) answers EROFS on
 *    a read-only mount, even for root; no process), and a read-only bind that is
 *    writable fails the command;
 * 5. bring loopback up (a private network namespace has only `lo`, down), re-enter the
 *    working directory (the old cwd is the directory under the new mounts) and run
 *    the command as a child: this shell stays the namespace's init, which the kernel
 *    would spare from SIGTERM without a handler; its trap passes SIGTERM on to every
 *    process of the namespace, and when it exits the kernel kills whatever is left.
 *
 * Arguments: `w:<dir>` writable, `r:<dir>` read-only, `h:<dir>` hidden, `p:<path>`
 * protected, then `--` and the command line.
 */

export const PRELUDE = `
set -eu
binds=(); modes=(); hides=(); protects=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    w:*) binds+=("\${1#w:}"); modes+=(rw) ;;
    r:*) binds+=("\${1#r:}"); modes+=(ro) ;;
    h:*) hides+=("\${1#h:}") ;;
    p:*) protects+=("\${1#p:}") ;;
    --) shift; break ;;
  esac
  shift
done
cmd="$1"; here="$PWD"
fds=()
for i in "\${!binds[@]}"; do exec {fd}<"\${binds[$i]}"; fds+=("$fd"); done
while read -r _ _ _ _ point _; do
  case "$point" in /proc|/proc/*|/sys|/sys/*|/dev|/dev/*) continue ;; esac
  mount -o remount,bind,ro "$point" 2>/dev/null || true
done < /proc/self/mountinfo
for h in "\${hides[@]}"; do
  [ -d "$h" ] && mount -t tmpfs -o mode=755,size=64m tmpfs "$h"
done
missing=()
for d in "\${binds[@]}"; do
  nested=0
  for e in "\${binds[@]}"; do case "$d" in "$e"/*) nested=1 ;; esac; done
  [ "$nested" = 1 ] || [ -d "$d" ] || missing+=("$d")
done
[ "\${#missing[@]}" -eq 0 ] || mkdir -p "\${missing[@]}"
for i in "\${!binds[@]}"; do
  d="\${binds[$i]}"
  [ -d "$d" ] || mkdir -p "$d"
  if [ "\${modes[$i]}" = ro ]; then
    mount --no-canonicalize -o bind,ro "/proc/self/fd/\${fds[$i]}" "$d"
  else
    mount --no-canonicalize --bind "/proc/self/fd/\${fds[$i]}" "$d"
    mount -o remount,bind,rw "$d"
  fi
done
for p in "\${protects[@]}"; do
  [ -e "$p" ] || continue
  n=0
  until mount -o bind,ro "$p" "$p" 2>/dev/null && ! [ -w "$p" ]; do
    n=$((n + 1))
    if [ "$n" -ge 20 ]; then echo "sandbox: could not make $p read-only" >&2; exit 32; fi
    sleep 0.05
  done
done
for i in "\${!binds[@]}"; do
  [ "\${modes[$i]}" = ro ] || continue
  if [ -w "\${binds[$i]}" ]; then echo "sandbox: \${binds[$i]} is not read-only" >&2; exit 32; fi
done
for fd in "\${fds[@]}"; do exec {fd}<&-; done
ip link set lo up 2>/dev/null || true
cd "$here"
unset binds modes hides protects fds here missing nested
trap 'kill -TERM -1 2>/dev/null; sleep 0.5; exit 143' TERM
bash -c "$cmd" &
wait "$!"
`;

export interface SandboxView {
  readonly writable: readonly string[];
  readonly readOnly: readonly string[];
  readonly hidden: readonly string[];
  readonly protectedPaths: readonly string[];
}

/** Binds are made parents first, so a bind inside another bind is not covered by it. */
export function preludeArgs(view: SandboxView, command: string): string[] {
  const binds = [...view.writable.map((d) => `w:${d}`), ...view.readOnly.map((d) => `r:${d}`)];
  binds.sort((a, b) => a.length - b.length);
  return [...binds, ...view.hidden.map((d) => `h:${d}`), ...view.protectedPaths.map((p) => `p:${p}`), '--', command];
}
