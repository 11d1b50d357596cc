/**
 * Java with Maven: `mvn -o` (or the wrapper) over every module to the end, offline from
 * what setup resolved (repo-config/maven-launcher.ts; setup in
 * activities/environment/detect-maven.ts).
 */
import { mavenLauncher, mavenTestCommand } from '../repo-config/maven-launcher.js';
import { EcosystemId, type EcosystemModule } from './ecosystem.js';

export const MAVEN_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Maven,
  docPage: 'java-maven.md',
  setupInputs: ['pom.xml'],
  testCommand: async (dir) => {
    const maven = await mavenLauncher(dir);
    if (maven === undefined) return undefined;
    const test = mavenTestCommand(maven);
    return {
      commands: { test },
      reasons: [`test: ${test} (${maven.why}; offline from what setup resolved, every module to the end)`],
    };
  },
};
