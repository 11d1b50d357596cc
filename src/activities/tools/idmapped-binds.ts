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
 * util-linux learned `X-mount.idmap` only in 2.39 (Debian 12 ships 2.38), so the three
 * system calls (open_tree, mount_setattr, move_mount; the same numbers on every Linux
 * architecture) are made by this small Python program, run by the prelude as root in
 * the sandbox's mount namespace, before it drops to the sandbox user.
 *
 * Arguments: `<uid> <gid>`, then one `<rw|ro>:<fd>:<target>` per bind, in order; the
 * source is a descriptor the prelude opened before anything was hidden. Any failure
 * exits 32 naming the target: a command never runs with a bind missing.
 */
export const IDMAPPED_BINDS_PROGRAM = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
L = ctypes.c_long
class Attr(ctypes.Structure):
    _fields_ = [("set", ctypes.c_uint64), ("clr", ctypes.c_uint64), ("prop", ctypes.c_uint64), ("ns", ctypes.c_uint64)]
def fail(what):
    sys.stderr.write("sandbox: %s: %s\\n" % (what, os.strerror(ctypes.get_errno())))
    sys.exit(32)
uid, gid = int(sys.argv[1]), int(sys.argv[2])
namespaces = {}
def userns(owner, group):
    # A user namespace whose only mapping is: owner of the directory -> the sandbox user.
    if (owner, group) in namespaces: return namespaces[(owner, group)]
    ready_r, ready_w = os.pipe()
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        ok = libc.unshare(0x10000000) == 0
        os.write(ready_w, b"1" if ok else b"0")
        os.read(done_r, 1)
        os._exit(0)
    if os.read(ready_r, 1) != b"1":
        fail("a user namespace for the idmapped binds")
    with open("/proc/%d/uid_map" % pid, "w") as f: f.write("%d %d 1" % (owner, uid))
    with open("/proc/%d/gid_map" % pid, "w") as f: f.write("%d %d 1" % (group, gid))
    ns = os.open("/proc/%d/ns/user" % pid, os.O_RDONLY)
    os.write(done_w, b"1")
    os.waitpid(pid, 0)
    namespaces[(owner, group)] = ns
    return ns
def bind(source, target, ro):
    st = os.fstat(source)
    tree = libc.syscall(L(428), L(source), b"", L(0x1000 | 0x1 | 0o2000000))
    if tree < 0: fail("open_tree " + target)
    attr = Attr(0x100000 | (0x1 if ro else 0), 0, 0, userns(st.st_uid, st.st_gid))
    if libc.syscall(L(442), L(tree), b"", L(0x1000), ctypes.byref(attr), L(ctypes.sizeof(attr))) < 0:
        fail("idmapped mount of " + target + " (its filesystem may not support idmapped mounts; " +
             "ISSUE_AGENT_SANDBOX_UID=0 on the worker runs agent commands as root without capabilities instead)")
    os.makedirs(target, exist_ok=True)
    if libc.syscall(L(429), L(tree), b"", L(-100), target.encode(), L(0x4)) < 0: fail("move_mount " + target)
    os.close(tree)
def searchable(st):
    return st.st_mode & 0o001 or (st.st_uid == uid and st.st_mode & 0o100) or (st.st_gid == gid and st.st_mode & 0o010)
shown = set()
for spec in sys.argv[3:]:
    mode, fd, target = spec.split(":", 2)
    # A root-only directory on the way (a 0700 home or temp dir) is shown read-only,
    # idmapped too, so the sandbox user can reach what is bound below it.
    parts = target.strip("/").split("/")[:-1]
    for i in range(1, len(parts) + 1):
        up = "/" + "/".join(parts[:i])
        if up in shown or not os.path.isdir(up) or searchable(os.stat(up)): continue
        shown.add(up)
        source = os.open(up, os.O_RDONLY | os.O_DIRECTORY)
        bind(source, up, True)
        os.close(source)
    bind(int(fd), target, mode == "ro")
`;
