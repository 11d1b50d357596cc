/** Java with Gradle: the test command is detected (repo-config/gradle-launcher.ts); setup does not prepare it yet. */
import { gradleLauncher, gradleTestCommand } from '../repo-config/gradle-launcher.js';
import { EcosystemId, type EcosystemModule } from './ecosystem.js';
import { Remedy } from './could-not-run-sign.js';

export const GRADLE_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Gradle,
  docPage: 'java-gradle.md',
  setupInputs: [],
  couldNotRun: [
    {
      // The wrapper's first line when its distribution is not installed yet.
      match: /^Downloading https?:\/\/\S+\/gradle-[\w.+-]+-(?:bin|all)\.zip\b/,
      seen: "Gradle's wrapper had to download Gradle itself (the preflight and the agent run offline)",
      remedy: Remedy.GradleOffline,
    },
    {
      match:
        /No cached version of \S+ available for offline mode|Could not resolve all (?:files|dependencies|artifacts) for configuration|Plugin \[id: '[^']+'(?:, version: '[^']+')?\] was not found/,
      seen: 'Gradle could not resolve a dependency or plugin (the preflight and the agent run offline)',
      remedy: Remedy.GradleOffline,
    },
  ],
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
