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
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createSandboxedSetupRunner } from '../../../src/activities/environment/sandboxed-setup-runner.js';
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

test('a model-written setup command: the worktree and the network yes; git config, hooks, host files and secrets no', async () => {
  const marker = `/tmp/agent-setup-host-${process.pid}`;
  const configBefore = readFileSync(join(repo.dir, '.git', 'config'), 'utf8');
  const previous = process.env['ANTHROPIC_API_KEY'];
  process.env['ANTHROPIC_API_KEY'] = SECRET;
  try {
    const run = (command: string) =>
      createSandboxedSetupRunner().run({
        command,
        cwd: repo.dir,
        env: { PATH: process.env['PATH'] ?? '' },
        timeoutMs: 60_000,
      });
    const installed = await run(
      `mkdir -p .deps && exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 > .deps/got.txt`,
    );
    assert.equal(installed.exitCode, 0, installed.output);
    assert.match(readFileSync(join(repo.dir, '.deps', 'got.txt'), 'utf8'), /fetched/, 'the worktree and the network');

    const planted = await run(
      `git config core.hooksPath /tmp/x; echo 'touch /tmp/pwned' > .git/hooks/post-checkout; touch ${marker}; env > .deps/env.txt; true`,
    );
    assert.equal(planted.exitCode, 0, planted.output);
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
  }
});
