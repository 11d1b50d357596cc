/**
 * C and C++: CMake with CTest, a Makefile `test`/`check` target, Autotools
 * (repo-config/c-build-commands.ts). A CMake project that downloads at configure time is
 * set up in activities/environment/detect-cmake.ts.
 */
import { detectCBuild } from '../repo-config/c-build-commands.js';
import { EcosystemId, type EcosystemModule } from './ecosystem.js';

export const C_BUILD_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.CBuild,
  docPage: 'c-cmake.md',
  setupInputs: [],
  testCommand: async (dir) => {
    const c = await detectCBuild(dir);
    return c === undefined ? undefined : { commands: { test: c.test }, reasons: [`test: ${c.test} (${c.reason})`] };
  },
};
