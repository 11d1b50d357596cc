/**
 * The sandbox prelude run directly in a mount namespace, with a `mount` on PATH that
 * reports success for `-o bind,ro` but leaves the bind writable (a mount(8) that did not
 * do what it was asked): the prelude must not run the command
 * with a protected file or a read-only directory writable. With the real mount, it runs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { detectIsolation, enforcesFilesystem } from '../../../src/activities/tools/process-isolation.js';
import { PRELUDE, preludeArgs } from '../../../src/activities/tools/sandbox-prelude.js';

let root: string;
let canMount = false;
before(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sandbox-prelude-'));
  canMount = enforcesFilesystem(await detectIsolation(() => undefined)) && process.getuid?.() === 0;
});
after(() => rmSync(root, { recursive: true, force: true }));

function layout(name: string): { work: string; readOnly: string; config: string; fakeBin: string; hide: string } {
  const base = path.join(root, name);
  const hide = path.join(base, 'hidden');
  mkdirSync(hide, { recursive: true });
  const work = path.join(base, 'work');
  const readOnly = path.join(base, 'deps');
  mkdirSync(path.join(work, '.git'), { recursive: true });
  mkdirSync(readOnly, { recursive: true });
  const config = path.join(work, '.git', 'config');
  writeFileSync(config, '[core]\n');
  const fakeBin = path.join(base, 'bin');
  mkdirSync(fakeBin);
  // Does what it is asked, then makes every read-only bind writable again and says 0: a
  // mount(8) that did not do what it was asked (one mount, or a whole table with -a -T).
  writeFileSync(
    path.join(fakeBin, 'mount'),
    [
      '#!/bin/bash',
      'args=("$@"); all=0; opts=""; tab=""',
      'for ((i = 0; i < ${#args[@]}; i++)); do',
      '  case "${args[$i]}" in -a) all=1 ;; -o) opts="${args[$((i + 1))]}" ;; -T) tab="${args[$((i + 1))]}" ;; esac',
      'done',
      '/usr/bin/mount "$@" || exit $?',
      'if [ "$all" = 1 ]; then',
      '  while read -r _ t _ o _; do',
      '    case "$o" in bind,ro*) printf -v t "%b" "$t"; /usr/bin/mount -o remount,bind,rw "$t" ;; esac',
      '  done < "$tab"',
      'else',
      '  case "$opts" in bind,ro*) /usr/bin/mount -o remount,bind,rw "${args[-1]}" ;; esac',
      'fi',
      'exit 0',
      '',
    ].join('\n'),
  );
  chmodSync(path.join(fakeBin, 'mount'), 0o755);
  return { work, readOnly, config, fakeBin, hide };
}

type SandboxView = Parameters<typeof preludeArgs>[0];
interface Ran {
  status: number | null;
  stderr: string;
  stdout: string;
}

/**
 * Runs `command` under the prelude in a fresh mount namespace from `cwd`. With `host`, an
 * outer namespace stands for the host first: its script gets `host.arg` as $1, then
 * execs the sandbox.
 */
function runSandboxed(
  cwd: string,
  view: SandboxView,
  command: string,
  options: {
    readonly pathVar?: string;
    readonly host?: { readonly script: string; readonly arg: string };
    readonly env?: Readonly<Record<string, string>>;
  } = {},
): Ran {
  const sandbox = ['unshare', '--mount', '--fork', 'bash', '-c', PRELUDE, 'sandbox', ...preludeArgs(view, command)];
  const argv = options.host
    ? ['unshare', '--mount', '--fork', 'bash', '-c', options.host.script, 'host', options.host.arg, ...sandbox]
    : sandbox;
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd,
    env: { ...options.env, PATH: options.pathVar ?? '/usr/sbin:/usr/bin:/sbin:/bin', HOME: cwd },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

/** A directory of the test's own to hide first: the prelude's scratch, so the next hidden dir goes in the table. */
function scratchDir(name: string): string {
  const dir = path.join(root, name, 'scratch');
  mkdirSync(dir);
  return dir;
}

function runPrelude(
  where: ReturnType<typeof layout>,
  options: { fakeMount: boolean; protect: boolean; table: boolean },
): Ran {
  const view = {
    writable: [where.work],
    readOnly: [where.readOnly],
    // A hidden dir gives the prelude its scratch tmpfs: the mounts go in as tables (mount -a).
    hidden: options.table ? [where.hide] : [],
    protectedPaths: options.protect ? [where.config] : [],
  };
  const command = `echo x >> ${JSON.stringify(where.config)} && echo CONFIG-WRITTEN; touch ${JSON.stringify(path.join(where.readOnly, 'f'))} && echo DEPS-WRITTEN; echo RAN`;
  const pathVar = `${options.fakeMount ? `${where.fakeBin}:` : ''}/usr/sbin:/usr/bin:/sbin:/bin`;
  return runSandboxed(where.work, view, command, { pathVar });
}

for (const table of [false, true]) {
  const how = table ? 'mounts as tables' : 'one mount each';

  test(`${how}: with the real mount, protected files and read-only binds are read-only and the command runs`, (t) => {
    if (!canMount) return t.skip('needs root and mount namespaces');
    const where = layout(`real-${how}`);
    const r = runPrelude(where, { fakeMount: false, protect: true, table });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /RAN/);
    assert.doesNotMatch(r.stdout, /CONFIG-WRITTEN|DEPS-WRITTEN/);
  });

  test(`${how}: a protected file left writable by mount is never handed to the command`, (t) => {
    if (!canMount) return t.skip('needs root and mount namespaces');
    const where = layout(`protect-${how}`);
    const r = runPrelude(where, { fakeMount: true, protect: true, table });
    assert.equal(r.status, 32, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(`sandbox: could not make ${where.config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} read-only`),
    );
    assert.doesNotMatch(r.stdout, /RAN/);
  });

  test(`${how}: a read-only bind left writable by mount fails the command before it runs`, (t) => {
    if (!canMount) return t.skip('needs root and mount namespaces');
    const where = layout(`deps-${how}`);
    const r = runPrelude(where, { fakeMount: true, protect: false, table });
    assert.equal(r.status, 32, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /sandbox: .*deps is not read-only/);
    assert.doesNotMatch(r.stdout, /RAN/);
  });
}

test('a hidden dir that already is a tmpfs (named "tmpfs", as a host /var/tmp may be) is still covered', (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('tmpfs-hide');
  const scratch = scratchDir('tmpfs-hide');
  const view = { writable: [where.work], readOnly: [], hidden: [scratch, where.hide], protectedPaths: [] };
  const secret = path.join(where.hide, 'secret');
  const command = `cat ${JSON.stringify(secret)} 2>/dev/null && echo LEAKED; echo RAN`;
  // An outer namespace stands for the host: the hidden dir is a tmpfs there, with a secret in it.
  const host = `mount -t tmpfs -o size=1m tmpfs "$1" && echo SECRET > "$1/secret" && shift && exec "$@"`;
  const r = runSandboxed(where.work, view, command, { host: { script: host, arg: where.hide } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /RAN/);
  assert.doesNotMatch(r.stdout, /SECRET|LEAKED/);
});

test('a sandbox inside a sandbox is refused: the command holds no capability to make namespaces', (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('nested');
  const scratch = scratchDir('nested');
  const view = {
    writable: [where.work],
    readOnly: [where.readOnly],
    hidden: [scratch, where.hide],
    protectedPaths: [],
  };
  // What the harness's own probe tries, inside a validator that runs this harness: plain
  // mount namespaces, then a user namespace. Both are refused (no CAP_SYS_ADMIN, and a user
  // namespace that maps root needs CAP_SETFCAP), so an inner harness runs its commands
  // without namespaces, still inside the outer sandbox.
  for (const unshare of ['unshare --mount --fork true', 'unshare --user --map-root-user --mount --fork true']) {
    const r = runSandboxed(where.work, view, `${unshare} && echo NESTED`);
    assert.doesNotMatch(r.stdout, /NESTED/, `${unshare}: ${r.stderr}`);
  }
});

test('a writable dir named through a symlink, over a mount the host already has there, stays writable', (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('symlinked');
  const real = path.join(root, 'symlinked', 'real');
  const link = path.join(root, 'symlinked', 'link');
  mkdirSync(real);
  symlinkSync(real, link);
  const scratch = scratchDir('symlinked');
  const view = { writable: [link], readOnly: [], hidden: [scratch, where.hide], protectedPaths: [] };
  // The host (an outer namespace) has a mount at the real dir, as a bind-mounted volume would be.
  const host = `mount --bind "$1" "$1" && shift && exec "$@"`;
  const command = `touch ${JSON.stringify(path.join(link, 'x'))} && echo WROTE`;
  const r = runSandboxed(where.work, view, command, { host: { script: host, arg: real } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /WROTE/, r.stderr);
});

test('the command starts in its own directory, with no directory the prelude visited in OLDPWD', (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('oldpwd');
  const view = {
    writable: [where.work],
    readOnly: [where.readOnly],
    hidden: [scratchDir('oldpwd')],
    protectedPaths: [],
  };
  const r = runSandboxed(where.work, view, 'echo "PWD=$PWD OLDPWD=$OLDPWD"');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), `PWD=${where.work} OLDPWD=${where.work}`);
});

test('the perls that remount and bind as root in the namespace load no module the environment names (PERL5OPT, PERL5LIB)', async (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('perl-env');
  const lib = path.join(root, 'perl-env', 'lib');
  const loaded = path.join(root, 'perl-env', 'loaded');
  mkdirSync(lib);
  // Loaded by a perl holding capabilities, this module could undo every mount before the drop.
  writeFileSync(
    path.join(lib, 'planted.pm'),
    `package planted; if ((grep { /^CapEff:\\s*0*[1-9a-f]/ } do { open my $s, '<', '/proc/self/status'; <$s> }) ) { open my $f, '>', '${loaded}'; print $f "root\\n"; } 1;\n`,
  );
  // With the sandbox user (a root worker), the idmapped binds' perl runs there too, also as root.
  const user = (await detectIsolation(() => undefined)).sandboxUser;
  const view = {
    writable: [where.work],
    readOnly: [],
    hidden: [],
    protectedPaths: [],
    remountPerl: '/usr/bin/perl',
    ...(user === undefined ? {} : { user }),
  };
  const r = runSandboxed(where.work, view, 'echo RAN', { env: { PERL5LIB: lib, PERL5OPT: '-Mplanted' } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /RAN/);
  assert.equal(existsSync(loaded), false, 'a module named by PERL5OPT ran with capabilities');
});

test("the prelude's own tools come from the launcher's PATH; the prepared bins go first only for the command", (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('prepend');
  // A prepared venv's bin/ (a dependency's console scripts): named like the prelude's tools.
  const venvBin = path.join(root, 'prepend', 'venv-bin');
  const ran = path.join(root, 'prepend', 'ran');
  mkdirSync(venvBin);
  for (const tool of ['mount', 'ip', 'setpriv', 'env', 'bash', 'unshare']) {
    writeFileSync(path.join(venvBin, tool), `#!/bin/sh\necho ${tool} >> ${JSON.stringify(ran)}\nexit 0\n`);
    chmodSync(path.join(venvBin, tool), 0o755);
  }
  const view = {
    writable: [where.work],
    readOnly: [],
    hidden: [],
    protectedPaths: [],
    commandPath: `${venvBin}:/usr/sbin:/usr/bin:/sbin:/bin`,
    remountPerl: '/usr/bin/perl',
  };
  const r = runSandboxed(where.work, view, 'echo "PATH=$PATH"; echo RAN');
  assert.equal(
    existsSync(ran),
    false,
    `the prelude ran the prepared bin's ${existsSync(ran) ? readFileSync(ran, 'utf8') : ''}`,
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`PATH=${venvBin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:/usr/sbin`));
  assert.match(r.stdout, /RAN/);
});
