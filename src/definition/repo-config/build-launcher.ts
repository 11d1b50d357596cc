/**
 * How a JVM build is started (Maven, Gradle): the project's own wrapper (`./mvnw`,
 * `./gradlew`) when the repository ships one that is executable (it pins the tool's
 * version the project builds with), else the tool from PATH. A wrapper without the execute
 * bit is left alone: running it through `sh` would hide that it is broken for the user
 * too. Shared by the test command's detection and the environment phase's setup.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface BuildLauncher {
  /** `./mvnw`, `mvn`, `./gradlew` or `gradle`. */
  readonly program: string;
  /** Why, for the reasons the CLI prints: `pom.xml, executable mvnw wrapper`. */
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

/** undefined when none of `buildFiles` is at the root of `dir`. */
export async function buildLauncher(
  dir: string,
  build: { readonly files: readonly string[]; readonly wrapper: string; readonly tool: string },
): Promise<BuildLauncher | undefined> {
  let found: string | undefined;
  for (const name of build.files) if (found === undefined && (await isFile(join(dir, name)))) found = name;
  if (found === undefined) return undefined;
  const wrapper = join(dir, build.wrapper);
  if (await isFile(wrapper)) {
    if (await isExecutable(wrapper))
      return { program: `./${build.wrapper}`, why: `${found}, executable ${build.wrapper} wrapper` };
    return { program: build.tool, why: `${found}; ${build.wrapper} is not executable, so ${build.tool} from PATH` };
  }
  return { program: build.tool, why: found };
}
