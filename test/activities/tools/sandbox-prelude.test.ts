/**
 * The sandbox prelude run directly in a mount namespace, with a `mount` on PATH that
 * reports success for `-o bind,ro` but leaves the bind writable (a mount(8) that did not
 * do what it was asked): the prelude must not run the command
 * with a protected file or a read-only directory writable. With the real mount, it runs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

function layout(name: string): { work: string; readOnly: string; config: string; fakeBin: string } {
  const base = path.join(root, name);
  const work = path.join(base, 'work');
  const readOnly = path.join(base, 'deps');
  mkdirSync(path.join(work, '.git'), { recursive: true });
  mkdirSync(readOnly, { recursive: true });
  const config = path.join(work, '.git', 'config');
  writeFileSync(config, '[core]\n');
  const fakeBin = path.join(base, 'bin');
  mkdirSync(fakeBin);
  // For `-o bind,ro` it binds, then remounts the bind writable, and says 0: a mount(8) that
  // did not do what it was asked.
  writeFileSync(
    path.join(fakeBin, 'mount'),
    [
      '#!/bin/bash',
      'nc=(); if [ "$1" = --no-canonicalize ]; then nc=(--no-canonicalize); shift; fi',
      'if [ "$1" = -o ] && [ "$2" = bind,ro ]; then',
      '  /usr/bin/mount "${nc[@]}" --bind "$3" "$4" && exec /usr/bin/mount -o remount,bind,rw "$4"',
      'fi',
      'exec /usr/bin/mount "${nc[@]}" "$@"',
      '',
    ].join('\n'),
  );
  chmodSync(path.join(fakeBin, 'mount'), 0o755);
  return { work, readOnly, config, fakeBin };
}

function runPrelude(
  where: ReturnType<typeof layout>,
  options: { fakeMount: boolean; protect: boolean },
): { status: number | null; stderr: string; stdout: string } {
  const view = {
    writable: [where.work],
    readOnly: [where.readOnly],
    hidden: [],
    protectedPaths: options.protect ? [where.config] : [],
  };
  const command = `echo x >> ${JSON.stringify(where.config)} && echo CONFIG-WRITTEN; touch ${JSON.stringify(path.join(where.readOnly, 'f'))} && echo DEPS-WRITTEN; echo RAN`;
  const pathVar = `${options.fakeMount ? `${where.fakeBin}:` : ''}/usr/sbin:/usr/bin:/sbin:/bin`;
  const r = spawnSync(
    'unshare',
    ['--mount', '--fork', 'bash', '-c', PRELUDE, 'sandbox', ...preludeArgs(view, command)],
    { cwd: where.work, env: { PATH: pathVar, HOME: where.work }, encoding: 'utf8', timeout: 30_000 },
  );
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

test('with the real mount, protected files and read-only binds are read-only and the command runs', (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('real');
  const r = runPrelude(where, { fakeMount: false, protect: true });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /RAN/);
  assert.doesNotMatch(r.stdout, /CONFIG-WRITTEN|DEPS-WRITTEN/);
});

test('a protected file left writable by mount is never handed to the command', (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('protect');
  const r = runPrelude(where, { fakeMount: true, protect: true });
  assert.equal(r.status, 32, `${r.stdout}\n${r.stderr}`);
  assert.match(
    r.stderr,
    new RegExp(`sandbox: could not make ${where.config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} read-only`),
  );
  assert.doesNotMatch(r.stdout, /RAN/);
});

test('a read-only bind left writable by mount fails the command before it runs', (t) => {
  if (!canMount) return t.skip('needs root and mount namespaces');
  const where = layout('deps');
  const r = runPrelude(where, { fakeMount: true, protect: false });
  assert.equal(r.status, 32, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, /sandbox: .*deps is not read-only/);
  assert.doesNotMatch(r.stdout, /RAN/);
});
