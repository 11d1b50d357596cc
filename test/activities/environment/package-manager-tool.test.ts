/**
 * What the fetch of a pinned package manager may write: its own temp dir under the tools
 * dir, npm's shared caches and the worktree; the rest of the tools dir stays read-only
 * (the scope of a Node setup command, setup-scope.ts, plus the temp dir).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cachesUnder } from '../../../src/activities/environment/cache-layout.js';
import { ensureTool } from '../../../src/activities/environment/package-manager-tool.js';
import type { CommandRequest } from '../../../src/activities/process/command-runner.js';
import { exited } from '../../helpers/command-outcome.js';
import { scopedSetupRunner, sharedCacheDirs } from '../../../src/activities/environment/setup-scope.js';
import { EcosystemId } from '../../../src/definition/ecosystems/ecosystem.js';

test('a package-manager fetch writes its temp dir, npm caches and the worktree; reads the tools dir', async (t) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'pm-tool-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const caches = cachesUnder(path.join(root, 'cache'), 'repo');
  const dir = path.join(root, 'worktree');
  const worktree = {
    dir,
    venv: `${dir}/venv`,
    goCache: `${dir}/gocache`,
    validatorGoCache: `${dir}/validator-gocache`,
    setupHome: `${dir}/home`,
    stamps: `${dir}/stamps`,
  };
  const seen: CommandRequest[] = [];
  const fake = {
    run: async (request: CommandRequest) => (seen.push(request), exited(0)),
  };
  const outcome = await ensureTool({
    request: { name: 'pnpm', version: '9.15.0', spec: 'pnpm@9.15.0', pinned: true, needsScripts: false },
    caches,
    worktree,
    runner: scopedSetupRunner(fake, caches, worktree),
    env: { PATH: '' },
    cwd: dir,
    timeoutMs: 60_000,
  });
  assert.equal(outcome.prefix, path.join(caches.tools, 'pnpm-9.15.0'));
  assert.equal(seen.length, 1);
  const [temp, ...rest] = seen[0]!.writableDirs ?? [];
  assert.ok(temp?.startsWith(`${outcome.prefix}.tmp-`), `temp dir: ${temp}`);
  assert.deepEqual(rest, [...sharedCacheDirs([EcosystemId.Node], caches, worktree), dir]);
  assert.ok(rest.includes(caches.npm) && !rest.includes(caches.tools) && !rest.includes(caches.cargoHome));
  assert.deepEqual(seen[0]!.readOnlyDirs, [caches.tools]);
});
