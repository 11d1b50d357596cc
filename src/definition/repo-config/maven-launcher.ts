/**
 * How a Maven project is started: its own wrapper `./mvnw` when the repository ships
 * one that is executable (it pins the Maven version the project builds with), else
 * `mvn` from PATH. A `mvnw` without the execute bit is left alone: running it through
 * `sh` would hide that it is broken for the user too. Shared by the test command's
 * detection and the environment phase's setup, so both start the same Maven.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface MavenLauncher {
  /** `./mvnw` or `mvn`. */
  readonly program: string;
  /** Why, for the reasons the CLI prints: `pom.xml, executable mvnw`. */
  readonly why: string;
}

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

/** undefined when the directory has no pom.xml (not a Maven project root). */
export async function mavenLauncher(dir: string): Promise<MavenLauncher | undefined> {
  if (!(await isFile(join(dir, 'pom.xml')))) return undefined;
  const wrapper = join(dir, 'mvnw');
  if (await isFile(wrapper)) {
    if (await isExecutable(wrapper)) return { program: './mvnw', why: 'pom.xml, executable mvnw wrapper' };
    return { program: 'mvn', why: 'pom.xml; mvnw is not executable, so mvn from PATH' };
  }
  return { program: 'mvn', why: 'pom.xml' };
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
