/**
 * How a Maven project is started (build-launcher.ts: `./mvnw` when executable, else
 * `mvn`) and its offline test command. Shared by the test command's detection and the
 * environment phase's setup, so both start the same Maven.
 */
import { buildLauncher, type BuildLauncher } from './build-launcher.js';

export type MavenLauncher = BuildLauncher;

/** undefined when the directory has no pom.xml (not a Maven project root). */
export function mavenLauncher(dir: string): Promise<MavenLauncher | undefined> {
  return buildLauncher(dir, { files: ['pom.xml'], wrapper: 'mvnw', tool: 'mvn' });
}

/**
 * The offline test command: `-o` (the sandbox has no network; setup resolved everything),
 * `--fail-at-end` (a failing module does not stop the modules that do not depend on it,
 * and the exit code is still non-zero), `-q` (Surefire's failures are printed at ERROR
 * level and stay; the rest is noise), and no failure when a `-Dtest=` filter added to
 * it matches nothing in some module.
 */
export function mavenTestCommand(launcher: MavenLauncher): string {
  return `${launcher.program} -B -o -q --fail-at-end -Dsurefire.failIfNoSpecifiedTests=false test`;
}
