/** Java with Gradle: the test command is detected (repo-config/gradle-launcher.ts); setup does not prepare it yet. */
import { gradleLauncher, gradleTestCommand } from '../repo-config/gradle-launcher.js';
import { EcosystemId, type EcosystemModule } from './ecosystem.js';

export const GRADLE_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Gradle,
  docPage: 'java-gradle.md',
  setupInputs: [],
  testCommand: async (dir) => {
    const gradle = await gradleLauncher(dir);
    if (gradle === undefined) return undefined;
    const test = gradleTestCommand(gradle);
    return {
      commands: { test },
      reasons: [`test: ${test} (${gradle.why}; not prepared by setup yet: docs/environments/java-gradle.md)`],
    };
  },
};
