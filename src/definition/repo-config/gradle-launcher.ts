/**
 * How a Gradle project is started: its own wrapper `./gradlew` when the repository
 * ships one that is executable (it pins the Gradle version the project builds with),
 * else `gradle` from PATH. A build is recognised by `build.gradle(.kts)` or
 * `settings.gradle(.kts)` at the root.
 *
 * The environment phase does not prepare Gradle yet (docs/environments/java-gradle.md):
 * nothing fetches the wrapper's distribution or the dependencies before the run goes
 * offline. The command is detected anyway, so that the preflight names what stops it
 * (the wrapper downloading in the offline sandbox, a dependency with no cached version)
 * instead of running a fallback meant for another ecosystem.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface GradleLauncher {
  /** `./gradlew` or `gradle`. */
  readonly program: string;
  /** Why, for the reasons the CLI prints: `build.gradle.kts, executable gradlew`. */
  readonly why: string;
}

const BUILD_FILES = ['build.gradle.kts', 'build.gradle', 'settings.gradle.kts', 'settings.gradle'];

const isFile = (file: string): Promise<boolean> =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

const isExecutable = (file: string): Promise<boolean> =>
  access(file, constants.X_OK).then(
    () => true,
    () => false,
  );

/** undefined when the directory has no Gradle build file at its root. */
export async function gradleLauncher(dir: string): Promise<GradleLauncher | undefined> {
  let build: string | undefined;
  for (const name of BUILD_FILES) if (build === undefined && (await isFile(join(dir, name)))) build = name;
  if (build === undefined) return undefined;
  const wrapper = join(dir, 'gradlew');
  if (await isFile(wrapper)) {
    if (await isExecutable(wrapper)) return { program: './gradlew', why: `${build}, executable gradlew wrapper` };
    return { program: 'gradle', why: `${build}; gradlew is not executable, so gradle from PATH` };
  }
  return { program: 'gradle', why: build };
}

/**
 * The offline test command: `--offline` (the sandbox has no network), `--continue` (a
 * failing test task does not stop the other projects' tests; the exit code is still
 * non-zero), `--console=plain` (no progress bar redrawn over the failures).
 */
export function gradleTestCommand(launcher: GradleLauncher): string {
  return `${launcher.program} --offline --continue --console=plain test`;
}
