/**
 * The seccomp filter on real agent commands, in both sandboxes: the worker's own (a
 * root worker: namespaces, commands as the sandbox user) and a non-root worker's (user
 * namespaces; run here as uid 65534 when the tests run as root). Inside, a command
 * cannot make namespaces (unshare, clone with CLONE_NEWUSER), mount in one, reach
 * keyrings, userfaultfd or io_uring, or leave the native ABI; git, node, python3, npm,
 * bash and threads work as before; and this harness's own isolation probe, run in there,
 * falls back to `none` instead of failing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { detectIsolation, isolatedArgv, IsolationMode } from '../../../src/activities/tools/process-isolation.js';
import { hiddenDirs } from '../../../src/activities/tools/sandbox-host-dirs.js';
import { sandboxCommand } from '../../../src/activities/tools/sandbox-launch.js';
import { seccompExecArgv, seccompMissingReason } from '../../../src/activities/tools/seccomp-exec.js';
import { SeccompArch, seccompArchOf } from '../../../src/activities/tools/seccomp-filter.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const isolation = await detectIsolation(() => {});
const filtered = seccompExecArgv(seccompArchOf()) !== undefined && process.platform === 'linux';
const skip = filtered ? false : 'no seccomp filter on this machine (no perl, or not Linux on x64/arm64)';
const isRoot = process.getuid?.() === 0;
const AS_65534 = ['--reuid', '65534', '--regid', '65534', '--clear-groups'];
/** A non-root worker's sandbox needs unprivileged user namespaces (some hosts turn them off). */
const userNamespaces =
  isRoot && spawnSync('setpriv', [...AS_65534, 'unshare', '--user', '--map-root-user', 'true']).status === 0;
const nonRootSkip = skip || (userNamespaces ? false : 'needs a root test process and unprivileged user namespaces');

interface Outcome {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
}

/** The command in the worker's own sandbox (sandbox-launch, as the bash tool runs it). */
async function asWorker(command: string): Promise<Outcome> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seccomp-wt-'));
  try {
    const sandbox = await sandboxCommand({ dir, command, readOnly: false });
    const run = spawnSync(sandbox.file, sandbox.args, {
      cwd: dir,
      env: sandbox.env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: run.status, signal: run.signal, out: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The command in a non-root worker's sandbox (user namespaces), the worker being uid 65534. */
function asNonRootWorker(command: string): Outcome {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seccomp-user-'));
  chmodSync(dir, 0o777);
  try {
    const userNamespaces = { ...isolation, mode: IsolationMode.UserNamespaces, sandboxUser: undefined };
    const view = { writable: [dir], readOnly: [], hidden: [], protectedPaths: [] };
    const { file, args } = isolatedArgv(userNamespaces, { command, view, privateNetwork: true });
    const env = {
      ...{ PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dir, TMPDIR: dir, LANG: 'C.UTF-8' },
      ...{ GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' },
    };
    const run = spawnSync('setpriv', [...AS_65534, file, ...args], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: run.status, signal: run.signal, out: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each attempt prints `<name>: ok` or `<name>: <strerror>`. */
const SYSCALLS = `
import ctypes, os, platform
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
L = ctypes.c_long
arm = platform.machine() == "aarch64"
NR = dict(clone=220, keyctl=219, userfaultfd=282) if arm else dict(clone=56, keyctl=250, userfaultfd=323)
def report(name, r):
    print("%s: %s" % (name, "ok" if r >= 0 else os.strerror(ctypes.get_errno())), flush=True)
pid = libc.syscall(L(NR["clone"]), L(0x10000000 | 17), L(0), L(0), L(0), L(0))
if pid == 0: os._exit(0)
if pid > 0: os.waitpid(pid, 0)
report("clone-newuser", pid)
report("clone3", libc.syscall(L(435), L(0), L(0)))
report("keyctl", libc.syscall(L(NR["keyctl"]), L(0), L(-3), L(0)))
report("userfaultfd", libc.syscall(L(NR["userfaultfd"]), L(1)))
report("io_uring_setup", libc.syscall(L(425), L(1), ctypes.create_string_buffer(120)))
report("unshare-user", libc.unshare(0x10000000))
`;

/** getpid through the i386 entry (int 0x80) from 64-bit code: a foreign ABI. */
const I386 = `
import ctypes, mmap
m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(bytes([0xb8, 20, 0, 0, 0, 0xcd, 0x80, 0xc3]))
print("i386 getpid:", ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))(), flush=True)
`;

const ATTACKS = [
  `python3 -c '${SYSCALLS}'`,
  'unshare -U true 2>&1 && echo "unshare -U: ok"',
  'unshare -m true 2>&1 && echo "unshare -m: ok"',
  'unshare -Urm sh -c \'mount -t tmpfs none /mnt && echo "mount: ok"\' 2>&1',
  'true',
].join('\n');

function assertDenied(outcome: Outcome): void {
  const { out } = outcome;
  for (const name of ['clone-newuser', 'keyctl', 'userfaultfd', 'io_uring_setup', 'unshare-user']) {
    assert.match(out, new RegExp(`^${name}: Operation not permitted$`, 'm'), `${name}: ${out}`);
  }
  assert.match(out, /^clone3: Function not implemented$/m, out);
  assert.doesNotMatch(out, /: ok$/m, out);
  assert.match(out, /unshare failed: Operation not permitted/, out);
}

test(
  'the worker’s sandbox: no namespace, mount, keyring, userfaultfd or io_uring for the command',
  { skip },
  async () => {
    assertDenied(await asWorker(ATTACKS));
  },
);

test('a non-root worker’s sandbox (user namespaces): the same denials', { skip: nonRootSkip }, () => {
  assertDenied(asNonRootWorker(ATTACKS));
});

/** Outside any filter, the i386 entry answers (x86_64 with IA32 emulation) or the test means nothing. */
const i386 =
  process.arch === 'x64' && spawnSync('python3', ['-c', I386], { encoding: 'utf8' }).stdout?.includes('i386 getpid:')
    ? false
    : 'no i386 entry here (x86_64 with IA32 emulation only)';
test('a system call through the i386 entry (int 0x80) kills the command', { skip: skip || i386 }, async () => {
  const outcome = await asWorker(`python3 -c '${I386}'; echo "status=$?"`);
  assert.doesNotMatch(outcome.out, /i386 getpid: \d+/, outcome.out);
  assert.match(outcome.out, /status=159/, `killed by SIGSYS: ${outcome.out}`);
});

/** Everyday work: forks, pipes and subshells, threads, git, node, python3, npm test. */
const EVERYDAY = `set -e
echo "subshells: $( (echo a; echo b) | wc -l)"; sleep 0.1 & wait
git init -q repo && git -C repo commit -q --allow-empty -m first && echo "git: $(git -C repo log --format=%s)"
cat > worker.js <<'JS'
const { Worker } = require('node:worker_threads');
const code = 'require("node:worker_threads").parentPort.postMessage(6 * 7)';
new Worker(code, { eval: true }).on('message', (m) => console.log('node worker:', m));
JS
node worker.js
cat > thread.py <<'PY'
import threading
r = []
t = threading.Thread(target=r.append, args=(42,))
t.start(); t.join()
print("python thread:", r[0])
PY
python3 thread.py
mkdir proj && cd proj
echo '{"name":"p","version":"1.0.0","scripts":{"test":"node --test"}}' > package.json
echo 'require("node:test")("adds", () => require("node:assert").equal(1 + 1, 2));' > add.test.js
npm test --silent 2>&1 | grep -E "^# (pass|fail)"
`;

function assertEveryday(outcome: Outcome): void {
  assert.equal(outcome.status, 0, outcome.out);
  for (const line of ['subshells: 2', 'git: first', 'node worker: 42', 'python thread: 42', '# pass 1', '# fail 0']) {
    assert.ok(outcome.out.includes(line), `${line}: ${outcome.out}`);
  }
}

test('everyday commands still work under the filter (worker’s sandbox)', { skip }, async () => {
  const outcome = await asWorker(`grep "^Seccomp:" /proc/self/status\n${EVERYDAY}`);
  assert.match(outcome.out, /^Seccomp:\s+2$/m, 'the command runs under a filter');
  assertEveryday(outcome);
});

test('everyday commands still work under the filter (non-root worker’s sandbox)', { skip: nonRootSkip }, () => {
  const outcome = asNonRootWorker(`grep "^Seccomp:" /proc/self/status\n${EVERYDAY}`);
  assert.match(outcome.out, /^Seccomp:\s+2$/m, 'the command runs under a filter');
  assertEveryday(outcome);
});

const hidden = hiddenDirs().some((dir) => !path.relative(dir, root).startsWith('..'));
test(
  'this harness run inside the sandbox: its isolation probe falls back to none, with a warning',
  { skip: skip || (hidden ? 'this checkout is under a directory the sandbox hides' : false) },
  async () => {
    const probe = path.join(root, 'test/activities/tools/isolation-probe.ts');
    const outcome = await asWorker(`cd ${JSON.stringify(root)} && node --import tsx ${JSON.stringify(probe)}`);
    assert.equal(outcome.status, 0, outcome.out);
    const report = JSON.parse(outcome.out.trim().split('\n').at(-1) ?? '{}') as {
      mode?: string;
      seccomp?: boolean;
      warnings?: string[];
    };
    assert.equal(report.mode, IsolationMode.None, outcome.out);
    assert.equal(report.seccomp, true, `the inner harness stacks a filter of its own: ${outcome.out}`);
    assert.ok(
      report.warnings?.some((w) => /unshare is not available/.test(w)),
      outcome.out,
    );
  },
);

test('no perl or an unknown architecture: no installer, and a reason for the worker’s one warning', () => {
  assert.equal(
    seccompExecArgv(SeccompArch.X64, () => false),
    undefined,
  );
  assert.equal(
    seccompExecArgv(undefined, () => true),
    undefined,
  );
  assert.equal(
    seccompExecArgv(SeccompArch.Arm64, (p) => p === '/usr/bin/perl' || p === '/usr/bin/env')?.[2],
    '/usr/bin/perl',
  );
  assert.match(seccompMissingReason(undefined, undefined), /architecture/);
  assert.match(seccompMissingReason(SeccompArch.X64, undefined), /no perl/);
  assert.match(seccompMissingReason(SeccompArch.X64, ['perl']), /refused/);
});

test('the installer runs right before the command line, with or without the mount prelude', () => {
  const words = ['/usr/bin/env', 'A=1'];
  const view = { writable: ['/w'], readOnly: [], hidden: [], protectedPaths: [] };
  const options = { command: 'make test', view, privateNetwork: false };
  const base = { privateNetwork: false, pdeathsig: false };
  const none = isolatedArgv({ ...base, mode: IsolationMode.None, seccomp: words }, options);
  assert.deepEqual([none.file, ...none.args], [...words, 'bash', '-c', 'make test']);
  const pid = isolatedArgv({ ...base, mode: IsolationMode.PidNamespace, seccomp: words }, options);
  assert.deepEqual(pid.args.slice(-5), [...words, 'bash', '-c', 'make test']);
  const mounts = isolatedArgv({ ...base, mode: IsolationMode.Namespaces, seccomp: words }, options);
  assert.deepEqual(mounts.args.slice(-2), ['--', "exec /usr/bin/env A=1 bash -c 'make test'"]);
  const without = isolatedArgv({ ...base, mode: IsolationMode.Namespaces }, options);
  assert.deepEqual(without.args.slice(-2), ['--', 'make test'], 'no filter here: the command as before');
});
