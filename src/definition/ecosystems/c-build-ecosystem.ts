/**
 * C and C++: CMake with CTest, a Makefile `test`/`check` target, Autotools
 * (repo-config/c-build-commands.ts). A CMake project that downloads at configure time is
 * configured once with the network (cmake-setup.ts); one that downloads nothing uses the
 * machine's libraries, which is said only when no other ecosystem was found.
 */
import { detectCBuild } from '../repo-config/c-build-commands.js';
import { Ecosystem } from '../../contracts/environment.js';
import { detectCMake } from './cmake-setup.js';
import { EcosystemId, type EcosystemModule } from './ecosystem.js';
import { AUTOMAKE } from './test-runners/automake.js';
import { C_BUILD_ERRORS } from './test-runners/c-build-errors.js';
import { CTEST } from './test-runners/ctest.js';
import { GOOGLETEST } from './test-runners/gtest.js';
import { UNITY } from './test-runners/unity.js';

export const C_BUILD_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.CBuild,
  docPage: 'c-cmake.md',
  setupInputs: [],
  setup: async (dir) => {
    const plan = await detectCMake(dir);
    return plan && { ...plan, ecosystem: Ecosystem.CMake, onlyAlone: plan.steps.length === 0 };
  },
  testCommand: async (dir) => {
    const c = await detectCBuild(dir);
    return c === undefined ? undefined : { commands: { test: c.test }, reasons: [`test: ${c.test} (${c.reason})`] };
  },
  // GoogleTest and Unity run under CTest or `make test`; a build that fails first names its files.
  testRunners: [CTEST, GOOGLETEST, UNITY, AUTOMAKE, C_BUILD_ERRORS],
};
