/**
 * The shell prelude that builds the agent's filesystem view inside a fresh mount
 * namespace (run by `unshare --mount ...`, so nothing here affects the host):
 *
 * 1. open a descriptor on every directory the command may use (worktree, its git dir,
 *    its private HOME), before anything is hidden, and note the inherited mounts;
 * 2. cover the worker's secrets with empty tmpfs: its HOME (~/.gitconfig, ~/.npmrc,
 *    ~/.config/gh, the harness state and snapshots), /tmp, /var/tmp, /dev/shm; and bind
 *    the opened directories back at their paths, writable (or read-only for a read-only
 *    step). Each process costs ~2 ms of CPU and a run builds a sandbox per agent
 *    command, so these mounts are one table for one `mount -a`, written as an fstab to
 *    the first hidden dir's fresh tmpfs (the scratch: /dev/shm or /tmp, which nothing
 *    else sees): ~10 processes a sandbox instead of ~30. Mount points are made by mount
 *    itself (X-mount.mkdir); read-only binds are `bind,ro`. The table must mount whole
 *    or the command does not run. `mount -a` skips an entry that looks mounted already,
 *    so the hiding tmpfs carry a source of their own (a random label): a host whose
 *    /var/tmp is a tmpfs called "tmpfs" would otherwise keep it visible; every hidden
 *    dir must then show that label in mountinfo, or the command does not run. With no
 *    hidden dir, each entry is its own mount(8);
 * 3. remount every inherited mount read-only (except /proc, /sys, /dev, and one our own
 *    mount covers at the same path, named directly or through symlinks), all in one perl
 *    process where there is one (`m:<perl>`, readonly-remounts.ts). After the binds: a bind
 *    keeps the read-only flag of the mount it comes from, so a writable one is made while
 *    its source is writable;
 * 4. bind the protected git files (config, hooks, worktree pointers) read-only over
 *    themselves (a second table). Git replaces `config` by a rename, so another run of
 *    the same repository may swap it between the bind and the read-only remount:
 *    whatever the table did, a protected path counts as done only once the shell's own
 *    `[ -w ]` says it is not writable (access(2) answers EROFS on a read-only mount,
 *    even for root; no process), else it is bound again (up to 20 tries, 50 ms after a
 *    failed one), then the command fails rather than run with the file writable. A
 *    read-only bind that is writable fails the command;
 * 5. bring loopback up (a private network namespace has only `lo`, down), re-enter the
 *    working directory (the old cwd is the directory under the new mounts) and run
 *    the command as a child: this shell stays the namespace's init, which the kernel
 *    would spare from SIGTERM without a handler; its trap passes SIGTERM on to every
 *    process of the namespace, and when it exits the kernel kills whatever is left.
 *
 * Arguments: `w:<dir>` writable, `r:<dir>` read-only (`s:<source>` just before one of
 * them: that directory is shown there instead, e.g. the agent's private admin dir at the
 * path of the worktree's admin dir), `h:<dir>` hidden, `p:<path>` protected,
 * `u:<uid>:<unshare nr>:<perl>` the sandbox user and what makes its binds, then
 * `--` and the command line.
 *
 * With a sandbox user (a root worker: process-isolation), the binds are idmapped
 * (idmapped-binds.ts), the hiding tmpfs belong to that user, and the command runs as it:
 * never as root on the host.
 */
import { IDMAPPED_BINDS_PROGRAM, type SandboxUser } from './idmapped-binds.js';
import { READONLY_REMOUNTS_PROGRAM } from './readonly-remounts.js';

export const PRELUDE = `
set -eu
IDMAPPED_BINDS='${IDMAPPED_BINDS_PROGRAM}'
READONLY_REMOUNTS='${READONLY_REMOUNTS_PROGRAM}'
binds=(); modes=(); sources=(); hides=(); protects=(); uid=""; src=""; perl=""; binder=""; unshare_nr=""; command_path=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    u:*) uid="\${1#u:}"; binder="\${uid#*:}"; uid="\${uid%%:*}"; unshare_nr="\${binder%%:*}"; binder="\${binder#*:}" ;;
    m:*) perl="\${1#m:}" ;;
    c:*) command_path="\${1#c:}" ;;
    s:*) src="\${1#s:}" ;;
    w:*) binds+=("\${1#w:}"); modes+=(rw); sources+=("\${src:-\${1#w:}}"); src="" ;;
    r:*) binds+=("\${1#r:}"); modes+=(ro); sources+=("\${src:-\${1#r:}}"); src="" ;;
    h:*) hides+=("\${1#h:}") ;;
    p:*) protects+=("\${1#p:}") ;;
    --) shift; break ;;
  esac
  shift
done
cmd="$1"; here="$PWD"
fds=()
for i in "\${!binds[@]}"; do exec {fd}<"\${sources[$i]}"; fds+=("$fd"); done
# The inherited mounts (as mountinfo escapes them), made read-only once ours are in place.
points=(); sysfs=()
while read -r _ _ _ _ point _; do
  case "$point" in /sys|/sys/*) sysfs+=("$point"); continue ;; /proc|/proc/*|/dev|/dev/*) continue ;; esac
  points+=("$point")
done < /proc/self/mountinfo
under() { local e; for e in "\${@:2}"; do case "$1" in "$e"/*) return 0 ;; esac; done; return 1; }
esc() { local x="\${1//\\\\/\\\\134}"; x="\${x// /\\\\040}"; x="\${x//$'\\t'/\\\\011}"; printf -v "$2" '%s' "\${x//$'\\n'/\\\\012}"; }
scratch=""
for h in "\${hides[@]}"; do
  under "$h" "\${hides[@]}" && continue
  case "$h" in /dev/shm) scratch="$h"; break ;; /tmp) scratch="$h" ;; *) [ -n "$scratch" ] || scratch="$h" ;; esac
done
# Our tmpfs get a source of their own: mount -a skips an entry that looks mounted already,
# and a host whose /var/tmp is a tmpfs named "tmpfs" would keep it, secrets and all.
label="issue-agent-sandbox-\${SRANDOM:-$RANDOM}$RANDOM"
tmpfs=mode=755,size=64m; [ -z "$uid" ] || tmpfs="$tmpfs,uid=$uid,gid=$uid"
[ -z "$scratch" ] || mount -t tmpfs -o "$tmpfs" "$label" "$scratch"
# One mount(8) for a whole table (mount -a with its own fstab, written to the scratch
# tmpfs) instead of one per mount; without a hidden dir to write it in, one per entry.
srcs=(); tgts=(); types=(); opts=()
entry() { srcs+=("$1"); tgts+=("$2"); types+=("$3"); opts+=("$4"); }
apply() {
  local i s t
  [ "\${#tgts[@]}" -gt 0 ] || return 0
  if [ -n "$scratch" ]; then
    : > "$scratch/.issue-agent-sandbox-fstab"
    for i in "\${!tgts[@]}"; do
      esc "\${srcs[$i]}" s; esc "\${tgts[$i]}" t
      printf '%s %s %s %s 0 0\\n' "$s" "$t" "\${types[$i]}" "\${opts[$i]}" >> "$scratch/.issue-agent-sandbox-fstab"
    done
    mount -a "$@" -T "$scratch/.issue-agent-sandbox-fstab"
  else
    for i in "\${!tgts[@]}"; do mount "$@" -t "\${types[$i]}" -o "\${opts[$i]}" "\${srcs[$i]}" "\${tgts[$i]}"; done
  fi
}
# Every path given read-only: one perl for them all (readonly-remounts.ts), else one mount(8) each.
# Perl runs here as root in the namespace, before the drop: with an empty environment, so no
# PERL5OPT or PERL5LIB can load code into it (the same for the idmapped binds).
readonly_all() {
  [ "$#" -gt 0 ] || return 0
  if [ -n "$perl" ] && env -i "$perl" -e "$READONLY_REMOUNTS" "$@" 2>/dev/null; then return 0; fi
  local q; for q in "$@"; do mount -o remount,bind,ro "$q" 2>/dev/null || true; done
}
for h in "\${hides[@]}"; do
  [ "$h" != "$scratch" ] && [ -d "$h" ] && ! under "$h" "\${hides[@]}" || continue
  entry "$label" "$h" tmpfs "$tmpfs"
done
# Binds come before the inherited mounts turn read-only, so a writable one is writable as
# made (a bind keeps the read-only flag of the mount it comes from).
# With a sandbox user, each bind is idmapped (idmapped-binds.ts): root's files shown as its.
idmapped=()
for i in "\${!binds[@]}"; do
  if [ -n "$uid" ]; then idmapped+=("\${modes[$i]}:\${fds[$i]}:\${binds[$i]}"); continue; fi
  if [ "\${modes[$i]}" = ro ]; then o=bind,ro,X-mount.mkdir; else o=bind,X-mount.mkdir; fi
  entry "/proc/self/fd/\${fds[$i]}" "\${binds[$i]}" none "$o"
done
apply --no-canonicalize
# From / (env -C: no subshell), by its path, as root before the drop: an empty environment.
[ -z "$uid" ] || [ "\${#idmapped[@]}" -eq 0 ] ||
  env -i -C / "$binder" -e "$IDMAPPED_BINDS" "$unshare_nr" "$uid" "$uid" "\${idmapped[@]}"
# Where ours are, as mountinfo names them (escaped; through symlinks too, by cd -P).
declare -A mine=()
for t in "$scratch" "\${tgts[@]}" "\${binds[@]}"; do
  [ -n "$t" ] || continue
  esc "$t" e; mine["$e"]=1
  if cd -P -- "$t" 2>/dev/null; then esc "$PWD" e; mine["$e"]=1; fi
done
# Now every inherited mount read-only, but where one of ours covers it at the same path
# (remounting that path would reach ours).
ro=()
for p in "\${points[@]}"; do
  [ -z "\${mine[$p]:-}" ] || continue
  printf -v q '%b' "$p"; ro+=("$q")
done
# In the same perl process: the kernel's knobs (/proc/sys: core_pattern, ...) and /sys with
# the cgroup hierarchies (release_agent, ...); the command below holds no capability to undo it.
! mount --bind /proc/sys /proc/sys 2>/dev/null || ro+=(/proc/sys)
for p in "\${sysfs[@]}"; do printf -v q '%b' "$p"; ro+=("$q"); done
readonly_all "\${ro[@]}"
# Every hide must be one of ours now (mountinfo, no process), or the command does not run.
declare -A ours=()
while read -r _ _ _ _ point rest; do
  rest="\${rest#* - }"; rest="\${rest#* }"
  [ "\${rest%% *}" != "$label" ] || ours["$point"]=1
done < /proc/self/mountinfo
for h in "\${hides[@]}"; do
  [ -d "$h" ] && ! under "$h" "\${hides[@]}" || continue
  esc "$h" e
  if [ -z "\${ours[$e]:-}" ]; then echo "sandbox: $h is not hidden" >&2; exit 32; fi
done
srcs=(); tgts=(); types=(); opts=()
for p in "\${protects[@]}"; do [ -e "$p" ] && entry "$p" "$p" none bind,ro; done
apply 2>/dev/null || true
for p in "\${protects[@]}"; do
  [ -e "$p" ] || continue
  n=0
  while [ -w "$p" ]; do
    n=$((n + 1))
    if [ "$n" -gt 20 ]; then echo "sandbox: could not make $p read-only" >&2; exit 32; fi
    mount -o bind,ro "$p" "$p" 2>/dev/null || sleep 0.05
  done
done
for i in "\${!binds[@]}"; do
  [ "\${modes[$i]}" = ro ] || continue
  if [ -w "\${binds[$i]}" ]; then echo "sandbox: \${binds[$i]} is not read-only" >&2; exit 32; fi
done
if [ -w /proc/sys/kernel/core_pattern ]; then echo "sandbox: /proc/sys is writable" >&2; exit 32; fi
for fd in "\${fds[@]}"; do exec {fd}<&-; done
ip link set lo up 2>/dev/null || true
cd "$here"; OLDPWD="$here" # the cd -P above must not show in the command's environment
unset binds modes sources src hides protects fds here scratch srcs tgts types opts label points sysfs mine ours e q o t p idmapped tmpfs IDMAPPED_BINDS binder unshare_nr ro perl READONLY_REMOUNTS
unset -f readonly_all
trap 'kill -TERM -1 2>/dev/null; sleep 0.5; exit 143' TERM
# No capability at all (bounding set empty, so not even a setuid binary regains one), and
# no_new_privs: whatever uid the command runs as, it cannot mount, remount or load modules.
# With a sandbox user (a root worker), not root either.
user=(); [ -z "$uid" ] || user=(--reuid "$uid" --regid "$uid" --clear-groups)
unset uid
# The command's PATH (the prepared bins first) only now: setpriv and bash found on the launcher's,
# by bash's own lookup (hash fills BASH_CMDS; a $(command -v) would fork a subshell each).
# Before PATH changes: assigning PATH empties the table.
hash setpriv bash; drop="\${BASH_CMDS[setpriv]}"; shell="\${BASH_CMDS[bash]}"
[ -z "$command_path" ] || PATH="$command_path"
unset command_path
"$drop" "\${user[@]}" --no-new-privs --bounding-set=-all --inh-caps=-all "$shell" -c "$cmd" <&0 &
wait "$!"
`;

export interface SandboxOverlay {
  readonly source: string;
  readonly target: string;
  readonly readOnly?: boolean;
}

export interface SandboxView {
  /** The host uid (and gid) the command runs as, through idmapped binds; undefined: the caller's. */
  readonly user?: SandboxUser;
  /** The perl that makes the inherited mounts read-only in one process (readonly-remounts.ts). */
  readonly remountPerl?: string;
  /**
   * The command's PATH, the prepared bins (a venv's `bin/`) first. The prelude runs as root
   * before the drop and finds its own tools (mount, ip, setpriv) on the launcher's PATH,
   * which has none of them: a dependency's console script named `mount` never runs there.
   */
  readonly commandPath?: string;
  readonly writable: readonly string[];
  readonly readOnly: readonly string[];
  /** Binds of another directory than the one at the path (target ← source), writable unless `readOnly`. */
  readonly overlays?: readonly SandboxOverlay[];
  readonly hidden: readonly string[];
  readonly protectedPaths: readonly string[];
}

/** Binds are made parents first, so a bind inside another bind is not covered by it. */
export function preludeArgs(view: SandboxView, command: string): string[] {
  const binds = [
    ...view.writable.map((d) => ({ target: d, args: [`w:${d}`] })),
    ...view.readOnly.map((d) => ({ target: d, args: [`r:${d}`] })),
    ...(view.overlays ?? []).map((o) => ({
      target: o.target,
      args: [`s:${o.source}`, `${o.readOnly === true ? 'r' : 'w'}:${o.target}`],
    })),
  ];
  binds.sort((a, b) => a.target.length - b.target.length);
  const user = view.user === undefined ? [] : [`u:${view.user.uid}:${view.user.unshareNr}:${view.user.perl}`];
  return [
    ...user,
    ...(view.remountPerl === undefined ? [] : [`m:${view.remountPerl}`]),
    ...(view.commandPath === undefined ? [] : [`c:${view.commandPath}`]),
    ...binds.flatMap((b) => b.args),
    ...view.hidden.map((d) => `h:${d}`),
    ...view.protectedPaths.map((p) => `p:${p}`),
    '--',
    command,
  ];
}
