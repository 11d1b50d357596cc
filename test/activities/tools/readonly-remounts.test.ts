/**
 * The prelude's one-process read-only remount (readonly-remounts.ts), run as the prelude
 * runs it: as root in a mount namespace of its own, on bind mounts made there.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { READONLY_REMOUNTS_PROGRAM, remountPerl } from '../../../src/activities/tools/readonly-remounts.js';

const perl = remountPerl((p) => spawnSync('test', ['-x', p]).status === 0);
const canUnshare = spawnSync('unshare', ['--mount', 'true']).status === 0;
const skip = perl === undefined || !canUnshare ? 'needs perl and a mount namespace (root)' : false;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ro-remounts-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Mount options (mountinfo's sixth field) of each of `dirs` after the script, seen inside the namespace. */
function optionsAfter(script: string, dirs: readonly string[]): string[] {
  const shown = dirs.map((d) => `awk -v d='${d}' '$5 == d { o = $6 } END { print o }' /proc/self/mountinfo`);
  const r = spawnSync(
    'unshare',
    ['--mount', '--propagation', 'private', 'bash', '-euc', [script, ...shown].join('\n')],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PROG: READONLY_REMOUNTS_PROGRAM, PERL: perl ?? '' },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n');
}

test('remountPerl takes the system perl by its absolute path, never one on PATH', () => {
  assert.equal(
    remountPerl((p) => p === '/bin/perl'),
    '/bin/perl',
  );
  assert.equal(
    remountPerl(() => false),
    undefined,
  );
});

test(
  'every path given turns read-only and keeps its other flags; one that fails does not stop the rest',
  { skip },
  () => {
    const a = mkdtempSync(path.join(scratch, 'a-'));
    const b = mkdtempSync(path.join(scratch, 'b-'));
    const [optsA, optsB] = optionsAfter(
      [
        `mount --bind '${a}' '${a}'`,
        `mount -o remount,bind,nosuid,nodev '${a}'`,
        `mount --bind '${b}' '${b}'`,
        `"$PERL" -e "$PROG" '${path.join(scratch, 'missing')}' '${a}' '${b}'`,
      ].join('\n'),
      [a, b],
    );
    assert.match(optsA!, /^ro,/, `a: ${optsA}`);
    assert.match(optsA!, /nosuid/, `a keeps nosuid: ${optsA}`);
    assert.match(optsA!, /nodev/, `a keeps nodev: ${optsA}`);
    assert.match(optsB!, /^ro,/, `b: ${optsB}`);
  },
);

test('without mount_setattr (a kernel before 5.12) it exits 3, so the prelude falls back to mount(8)', { skip }, () => {
  // The same program with a system call number no kernel has: ENOSYS on the first path.
  const noSuchCall = READONLY_REMOUNTS_PROGRAM.replace('syscall(442,', 'syscall(100000,');
  const r = spawnSync(perl!, ['-e', noSuchCall, scratch], { encoding: 'utf8' });
  assert.equal(r.status, 3, r.stderr);
});
