/**
 * Go: `go test ./...` in every module (repo-config/go-modules.ts: `./...` stops at a nested
 * module); setup in activities/environment/detect-go.ts.
 */
import { goModules, inEveryModule, singleRootModule } from '../repo-config/go-modules.js';
import { EcosystemId, type EcosystemModule } from './ecosystem.js';

export const GO_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Go,
  docPage: 'go.md',
  setupInputs: ['go.mod', 'go.sum'],
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
};
