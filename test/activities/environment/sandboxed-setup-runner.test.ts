/**
 * An agent-written setup's commands run in the sandbox, not on the host: they may write
 * the worktree and reach the network (they install and fetch), but not the repository's
 * git config or hooks, not the host's /tmp, and they never see the worker's secrets. A
 * configured setup's runner (on the host) does all of these, which is why a model's
 * commands must not use it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  createContainedSetupRunner,
  createSandboxedSetupRunner,
} from '../../../src/activities/environment/sandboxed-setup-runner.js';
import type { CommandRunner } from '../../../src/activities/process/command-runner.js';
import { detectIsolation } from '../../../src/activities/tools/process-isolation.js';
import { SETUP_PORTS_ENV } from '../../../src/activities/tools/setup-connect-ports.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

const SECRET = ['sk', 'ant', 'api03', 'sandboxedsetupsecret0123456789'].join('-');
let repo: TempGitRepo;
let server: Server;
let port: number;

before(async () => {
  repo = await makeTempGitRepo({ files: { 'README.md': 'x\n' } });
  server = createServer((_req, res) => res.end('fetched'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.close();
  await repo.cleanup();
});

/** One setup command in the test repository, with the runner's own environment rules. */
function runIn(runner: CommandRunner, command: string) {
  return runner.run({ command, cwd: repo.dir, env: { PATH: process.env['PATH'] ?? '' }, timeoutMs: 60_000 });
}

test('a model-written setup command: the worktree and the network yes; git config, hooks, host files and secrets no', async () => {
  const marker = `/tmp/agent-setup-host-${process.pid}`;
  const configBefore = readFileSync(join(repo.dir, '.git', 'config'), 'utf8');
  const previous = process.env['ANTHROPIC_API_KEY'];
  process.env['ANTHROPIC_API_KEY'] = SECRET;
  // The test's stand-in for a registry listens on a port of its own: allowed as an operator would.
  process.env[SETUP_PORTS_ENV] = String(port);
  try {
    const run = (command: string) => runIn(createSandboxedSetupRunner(), command);
    const installed = await run(
      `mkdir -p .deps && exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 > .deps/got.txt`,
    );
    assert.equal(installed.exitCode, 0, installed.all);
    assert.match(readFileSync(join(repo.dir, '.deps', 'got.txt'), 'utf8'), /fetched/, 'the worktree and the network');

    const planted = await run(
      `git config core.hooksPath /tmp/x; echo 'touch /tmp/pwned' > .git/hooks/post-checkout; touch ${marker}; env > .deps/env.txt; true`,
    );
    assert.equal(planted.exitCode, 0, planted.all);
    assert.equal(readFileSync(join(repo.dir, '.git', 'config'), 'utf8'), configBefore, 'git config unchanged');
    assert.equal(existsSync(join(repo.dir, '.git', 'hooks', 'post-checkout')), false, 'no hook planted');
    assert.equal(existsSync(marker), false, "the host's /tmp is not the command's");
    assert.ok(
      !readFileSync(join(repo.dir, '.deps', 'env.txt'), 'utf8').includes(SECRET),
      'no secret in its environment',
    );
  } finally {
    if (previous === undefined) delete process.env['ANTHROPIC_API_KEY'];
    else process.env['ANTHROPIC_API_KEY'] = previous;
    delete process.env[SETUP_PORTS_ENV];
  }
});

test("setup connects only to the setup ports: this host's Temporal frontend (any other port) is refused, and nothing reaches it", async (t) => {
  if ((await detectIsolation(() => {})).landlockNet !== true) return t.skip('no Landlock network rules on this kernel');
  // A stand-in for the Temporal frontend on loopback: it records every connection.
  const seen: string[] = [];
  const frontend = createNetServer((socket) => {
    seen.push('connected');
    socket.end();
  });
  await new Promise<void>((resolve) => frontend.listen(0, '127.0.0.1', resolve));
  const frontendPort = (frontend.address() as AddressInfo).port;
  const probe = `exec 3<>/dev/tcp/127.0.0.1/${frontendPort} && echo reached`;
  try {
    for (const runner of [createSandboxedSetupRunner(), createContainedSetupRunner()]) {
      const result = await runIn(runner, probe);
      assert.notEqual(result.exitCode, 0, result.all);
      assert.match(result.all, /Permission denied/, result.all);
      assert.doesNotMatch(result.all, /reached/);
    }
    assert.deepEqual(seen, [], 'no connection reached the frontend');
    // An abstract unix socket of a host process (the host's network namespace holds them: containerd-shim's).
    const abstract = `issue-agent-test-${process.pid}`;
    const abstractSeen: string[] = [];
    const host = createNetServer((socket) => {
      abstractSeen.push('abstract');
      socket.end();
    });
    await new Promise<void>((resolve) => host.listen(`\0${abstract}`, resolve));
    const unix = `node -e 'require("net").connect("\\0${abstract}").on("connect", () => { console.log("reached"); process.exit(0); }).on("error", (e) => { console.log(e.code); process.exit(1); })'`;
    try {
      const viaUnix = await runIn(createContainedSetupRunner(), unix);
      assert.notEqual(viaUnix.exitCode, 0, viaUnix.all);
      assert.match(viaUnix.all, /EPERM|EACCES/, viaUnix.all);
      assert.deepEqual(abstractSeen, [], 'no connection reached the abstract socket');
    } finally {
      host.close();
    }
    // The operator opens a port for a registry of their own.
    process.env[SETUP_PORTS_ENV] = `8081, ${frontendPort}`;
    const opened = await runIn(createContainedSetupRunner(), probe);
    assert.equal(opened.exitCode, 0, opened.all);
    assert.deepEqual(seen, ['connected']);
  } finally {
    delete process.env[SETUP_PORTS_ENV];
    frontend.close();
  }
});
