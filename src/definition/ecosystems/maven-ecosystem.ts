/**
 * Java with Maven: setup resolves every module's dependencies and plugins into the shared
 * local repository (maven-setup.ts); the sandbox gets that repository read-only through
 * MAVEN_OPTS (mvn has no variable for it; MAVEN_OPTS is split on spaces, so the worker's
 * own options are not carried over), with or without a configured setup; the test command
 * is `mvn -o` (or the wrapper) over every module to the end (repo-config/maven-launcher.ts).
 */
import { mavenLauncher, mavenTestCommand } from '../repo-config/maven-launcher.js';
import type { CacheLayout } from '../../contracts/environment-dirs.js';
import { Ecosystem } from '../../contracts/environment.js';
import { EcosystemId, readRepoFile, type EcosystemModule, type SandboxView } from './ecosystem.js';
import { Remedy } from './could-not-run-sign.js';
import { detectMaven } from './maven-setup.js';
import { JAVAC, SUREFIRE } from './test-runners/surefire.js';

const mavenView = (caches: CacheLayout): SandboxView => ({
  env: { MAVEN_OPTS: `-Dmaven.repo.local=${caches.mavenRepo}`, MAVEN_USER_HOME: caches.maven },
  readOnlyDirs: [caches.maven],
});

export const MAVEN_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Maven,
  docPage: 'java-maven.md',
  setupInputs: ['pom.xml'],
  couldNotRun: [
    {
      match:
        /Could not resolve dependencies for project|Plugin \S+ or one of its dependencies could not be resolved|Could not transfer artifact|Non-resolvable (?:parent|import) POM|(?:Cannot access \S+ \(\S+\) )?in offline mode and the artifact \S+ has not been downloaded/,
      seen: 'Maven could not resolve a plugin or dependency (the preflight and the agent run offline)',
      remedy: Remedy.FetchInSetup,
    },
    {
      // maven-enforcer's requireMavenVersion, and a plugin's own prerequisite (checked even when skipped).
      match: /Detected Maven Version: \S+ is not in the allowed range (\S+?)\.?$|requires Maven version (\d[\w.-]*)/,
      seen: "the project needs a newer Maven than this host's",
      remedy: Remedy.NewerMaven,
    },
  ],
  setupEnv: (caches, _worktree, inherited) => ({
    // Maven has no variable for its local repository: a system property, after the worker's own options.
    MAVEN_OPTS: [inherited['MAVEN_OPTS'], `-Dmaven.repo.local=${caches.mavenRepo}`].filter(Boolean).join(' '),
    MAVEN_USER_HOME: caches.maven,
  }),
  setup: async (dir, caches) => {
    const plan = await detectMaven(dir, caches);
    return plan && { ...plan, ecosystem: Ecosystem.Maven, sandbox: mavenView(caches) };
  },
  configuredSandbox: async (dir, caches) =>
    (await readRepoFile(dir, 'pom.xml')) === undefined ? undefined : mavenView(caches),
  testCommand: async (dir) => {
    const maven = await mavenLauncher(dir);
    if (maven === undefined) return undefined;
    const test = mavenTestCommand(maven);
    return {
      commands: { test },
      reasons: [`test: ${test} (${maven.why}; offline from what setup resolved, every module to the end)`],
    };
  },
  testRunners: [JAVAC, SUREFIRE],
  buildOutputs: { markers: ['pom.xml'], patterns: [{ pattern: '/target/', probe: 'target/' }] },
};
