/**
 * How a Gradle project is started (build-launcher.ts: `./gradlew` when executable, else
 * `gradle`), recognised by `build.gradle(.kts)` or `settings.gradle(.kts)` at the root.
 *
 * The environment phase does not prepare Gradle yet (docs/environments/java-gradle.md):
 * nothing fetches the wrapper's distribution or the dependencies before the run goes
 * offline. The command is detected anyway, so that the preflight names what stops it
 * (the wrapper downloading in the offline sandbox, a dependency with no cached version)
 * instead of running a fallback meant for another ecosystem.
 */
import { buildLauncher, type BuildLauncher } from './build-launcher.js';

export type GradleLauncher = BuildLauncher;

const BUILD_FILES = ['build.gradle.kts', 'build.gradle', 'settings.gradle.kts', 'settings.gradle'];

/** undefined when the directory has no Gradle build file at its root. */
export function gradleLauncher(dir: string): Promise<GradleLauncher | undefined> {
  return buildLauncher(dir, { files: BUILD_FILES, wrapper: 'gradlew', tool: 'gradle' });
}

/**
 * The offline test command: `--offline` (the sandbox has no network), `--continue` (a
 * failing test task does not stop the other projects' tests; the exit code is still
 * non-zero), `--console=plain` (no progress bar redrawn over the failures).
 */
export function gradleTestCommand(launcher: GradleLauncher): string {
  return `${launcher.program} --offline --continue --console=plain test`;
}
