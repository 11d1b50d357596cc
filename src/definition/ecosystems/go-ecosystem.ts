/**
 * Go: setup downloads the modules into the shared GOMODCACHE and warms this repository's
 * build cache (go-setup.ts); the sandbox gets the module cache read-only with GOPROXY=off,
 * and a GOCACHE of the worktree's own, seeded from the warm shared one (go must write its
 * cache, and the agent must not write a cache later runs trust), with the GOFLAGS setup ran
 * with (the build cache is keyed by them). `go test ./...` runs in every module
 * (repo-config/go-modules.ts: `./...` stops at a nested module).
 */
import { goModules, inEveryModule, singleRootModule } from '../repo-config/go-modules.js';
import path from 'node:path';
import { Ecosystem } from '../../contracts/environment.js';
import { EcosystemId, type EcosystemModule } from './ecosystem.js';
import { detectGo } from './go-setup.js';
import { GO_TEST } from './test-runners/go-test.js';

export const GO_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Go,
  docPage: 'go.md',
  setupInputs: ['go.mod', 'go.sum'],
  setupEnv: (caches, worktree) => ({
    GOMODCACHE: caches.goMod,
    GOCACHE: caches.goBuild,
    GOPATH: path.join(worktree.setupHome, 'go'),
  }),
  setup: async (dir, caches, worktree) => {
    const plan = await detectGo(dir, caches);
    if (plan === undefined) return undefined;
    return {
      ...plan,
      ecosystem: Ecosystem.Go,
      sandbox: {
        env: { GOMODCACHE: caches.goMod, GOCACHE: worktree.goCache, GOPROXY: 'off', GOTOOLCHAIN: 'local' },
        fromSetupEnv: ['GOFLAGS'],
        readOnlyDirs: [caches.goMod],
        writableDirs: [worktree.goCache],
        validators: { env: { GOCACHE: worktree.validatorGoCache }, writableDirs: [worktree.validatorGoCache] },
      },
      buildCacheSeeds: [
        { shared: caches.goBuild, target: worktree.goCache, for: 'agent' },
        { shared: caches.goBuild, target: worktree.validatorGoCache, for: 'validators' },
      ],
    };
  },
  testCommand: async (dir) => {
    const go = await goModules(dir);
    if (go === undefined) return undefined;
    const test = inEveryModule(go, 'go test ./...');
    const why = singleRootModule(go)
      ? 'go.mod'
      : `${go.work ? 'go.work uses' : 'go.mod in'} ${go.dirs.join(', ')}: ./... stops at a nested module, so every module runs its own, to the end`;
    return { commands: { test }, reasons: [`test: ${test} (${why})`] };
  },
  unrecoverable: [
    {
      match:
        /^go: (?:cannot find main module|go\.mod file not found)|does not contain main module or its selected dependencies/m,
      reason: 'go cannot find the module (no go.mod here); fix the validator command or its directory',
    },
  ],
  testRunners: [GO_TEST],
};
