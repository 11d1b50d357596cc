/**
 * The Go steps of the plan: download the modules into the shared GOMODCACHE, then compile
 * every package and its tests once to warm this repository's build cache (optional: a
 * base that does not build may be the issue). In a repository of several modules (go.work,
 * or nested go.mod files: go-modules.ts) both run in every module's directory, since the
 * root's `./...` stops at a nested module and its dependencies would be missing offline.
 */
import { Ecosystem } from '../../contracts/environment.js';
import type { CacheLayout } from '../../contracts/environment-dirs.js';
import { goInputs, goModules, inEveryModule, singleRootModule } from '../repo-config/go-modules.js';
import type { EcosystemStep } from './ecosystem.js';

export interface GoPlan {
  readonly detected: string;
  readonly steps: readonly EcosystemStep[];
}

export async function detectGo(dir: string, caches: CacheLayout): Promise<GoPlan | undefined> {
  const modules = await goModules(dir);
  if (modules === undefined) return undefined;
  const inputs = await goInputs(dir, modules);
  const single = singleRootModule(modules);
  const where = single ? 'go.mod' : `${modules.work ? 'go.work uses' : 'go.mod in'} ${modules.dirs.join(', ')}`;
  const each = single ? '' : ' in every module';
  const download = inEveryModule(modules, 'go mod download');
  const warm = inEveryModule(modules, "go test -count=1 -run='^$' ./...");
  return {
    detected: `go: go mod download (${where}), then go test -run=^$ ./...${each} to warm this repository's build cache`,
    steps: [
      {
        id: 'go-download',
        ecosystem: Ecosystem.Go,
        command: download,
        reason: `go: go mod download${each} (${where})`,
        inputs,
        caches: [`GOMODCACHE ${caches.goMod}`],
      },
      {
        id: 'go-warm',
        ecosystem: Ecosystem.Go,
        command: warm,
        reason: `go: compile the packages and their tests once${each}, so the agent starts with a warm GOCACHE`,
        inputs,
        caches: [`GOCACHE ${caches.goBuild}`],
        optional: true,
      },
    ],
  };
}
