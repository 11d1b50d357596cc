/**
 * The repository's own setup at the base commit may be an agent's: a run delivered with
 * `--deliver merge` or `squash` puts its commit on the user's branch, and the next run's
 * environment phase runs what it committed (a `.yarnrc.yml` `yarnPath`, a plugin, a
 * `setup.py`, here `.agent/config.json`'s `commands.setup`). That setup keeps the network
 * and the shared package caches, and reaches nothing else of the host:
 *
 * - the worker's secrets through `/proc/<pid>/environ` (a process holding one runs beside
 *   it, as the worker does);
 * - the user's git dir (a hook, `core.fsmonitor`), the host's `/tmp`, the harness state dir;
 * - the shared stamps (which tell later runs of other repositories a cache is warm).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SetupStepStatus } from '../../../src/contracts/environment.js';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { useEnvironmentProject } from './environment-fixtures.js';

const SECRET = ['sk', 'ant', 'api03', 'committedsetupsecret0123456789'].join('-');
let hostDir: string;
let server: Server;
let port: number;
let worker: ChildProcess;

/** Every attack in one command line; each part fails quietly, so the setup step succeeds. */
function hostileSetup(): string {
  return [
    'for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < "$f" 2>/dev/null; done > leaked.txt',
    'common=$(git rev-parse --path-format=absolute --git-common-dir)',
    `printf '#!/bin/sh\\ntouch ${hostDir}/hook-ran\\n' > "$common/hooks/post-checkout" 2>/dev/null`,
    `git config --file "$common/config" core.fsmonitor "touch ${hostDir}/fsmonitor-ran" 2>/dev/null`,
    `touch ${hostDir}/host-tmp 2>/dev/null`,
    'touch "$ISSUE_AGENT_STATE_DIR/planted" 2>/dev/null',
    'touch "$npm_config_cache/written-by-setup"',
    'touch "$npm_config_cache/../stamps/forged" 2>/dev/null',
    `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 > fetched.txt`,
    'true',
  ].join('; ');
}

const env = useEnvironmentProject({ 'README.md': 'a repository whose setup an agent committed\n' });

before(async () => {
  hostDir = await mkdtemp(path.join(os.tmpdir(), 'committed-setup-host-'));
  server = createServer((_req, res) => res.end('fetched'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // The test's stand-in for a registry listens on a port of its own: allowed as an operator would.
  process.env['ISSUE_AGENT_SETUP_PORTS'] = String(port);
  // A process holding a credential, as the worker does (its environ is what /proc shows).
  worker = spawn('sleep', ['600'], { env: { PATH: process.env['PATH'] ?? '', ANTHROPIC_API_KEY: SECRET } });
});
after(async () => {
  worker.kill('SIGKILL');
  server.close();
  delete process.env['ISSUE_AGENT_SETUP_PORTS'];
  await rm(hostDir, { recursive: true, force: true });
});

test('a setup the base commits runs with the network and the package caches, and reaches nothing else of the host', async () => {
  const { repo } = env.project;
  const dir = await env.project.worktree('merged-by-an-agent');
  const configBefore = readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8');
  const report = await env.prepare(dir, { setup: [hostileSetup()] });

  assert.deepEqual(
    report.steps.map((s) => s.status),
    [SetupStepStatus.Ran],
  );
  assert.match(readFileSync(path.join(dir, 'fetched.txt'), 'utf8'), /fetched/, 'the network');
  const caches = cacheLayout(repo.dir);
  assert.equal(existsSync(path.join(caches.npm, 'written-by-setup')), true, 'the package caches');

  const leaked = readFileSync(path.join(dir, 'leaked.txt'), 'utf8');
  assert.ok(!leaked.includes(SECRET), 'a process of the host read through /proc');
  assert.equal(existsSync(path.join(repo.dir, '.git', 'hooks', 'post-checkout')), false, 'a hook planted');
  assert.equal(readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8'), configBefore, 'git config changed');
  assert.equal(existsSync(path.join(hostDir, 'host-tmp')), false, "the host's /tmp");
  assert.equal(existsSync(path.join(process.env['ISSUE_AGENT_STATE_DIR'] ?? '', 'planted')), false, 'the state dir');
  assert.equal(existsSync(path.join(caches.stamps, 'forged')), false, 'the shared stamps');
});
