/**
 * A Maven project (pom.xml at the root) in the environment phase. The agent's tests run
 * offline in the sandbox (`mvn -o`), so setup, which has the network, must leave in the
 * local repository everything that run loads. Two steps:
 *
 * 1. `mvn -B dependency:go-offline`: the dependencies and the plugins the poms name,
 *    even when the base does not compile. It misses things (plugins' own dependencies
 *    resolved at run time, a reactor's modules that depend on each other), hence 2.
 * 2. The lifecycle up to `test` once, running no test (`-Dtest='*#…'` matches no
 *    method, `failIfNoSpecifiedTests=false`): every plugin of the lifecycle is loaded
 *    and Surefire resolves its provider (surefire-junit-platform, -junit4, -testng),
 *    which it does only when it reaches the tests: `go-offline` and `-DskipTests` both
 *    leave it out, and without it `mvn -o test` fails "in offline mode and the artifact
 *    … has not been downloaded". Failures are ignored (the base may have red tests);
 *    a base that does not compile gets a second try that needs no compiled test.
 *
 * Both are optional: when they fail, the preflight tells "cannot resolve offline" (a
 * stop, with what to configure) from failing tests.
 * The local repository is shared (environment cache, like Go's module cache) and named
 * by `-Dmaven.repo.local` in MAVEN_OPTS, set by setup-env and maven-ecosystem.ts: the
 * sandbox hides the worker's HOME and its ~/.m2. MAVEN_USER_HOME keeps a wrapper's
 * Maven distribution there too.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Ecosystem } from '../../contracts/environment.js';
import { mavenLauncher, type MavenLauncher } from '../repo-config/maven-launcher.js';
import type { CacheLayout } from '../../contracts/environment-dirs.js';
import type { EcosystemStep } from './ecosystem.js';

export interface MavenPlan {
  readonly detected: string;
  readonly steps: readonly EcosystemStep[];
}

/** Files of a Maven build's configuration besides the poms: they change what is resolved. */
const MAVEN_CONFIG = ['.mvn/wrapper/maven-wrapper.properties', '.mvn/maven.config', '.mvn/extensions.xml'];
/** Module poms are followed this deep (a reactor of reactors); each is a step input. */
const MAX_MODULE_DEPTH = 4;
const MAX_MODULES = 200;

const isFile = (file: string): Promise<boolean> =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

export async function detectMaven(dir: string, caches: CacheLayout): Promise<MavenPlan | undefined> {
  const launcher = await mavenLauncher(dir);
  if (launcher === undefined) return undefined;
  const mvn = launcher.program;
  const config: string[] = [];
  for (const name of MAVEN_CONFIG) if (await isFile(path.join(dir, name))) config.push(name);
  const inputs = [...(await modulePoms(dir)), ...config];
  const cache = [`Maven local repository ${caches.mavenRepo}`];
  const goOffline = `${mvn} -B dependency:go-offline`;
  const resolve = mavenResolveCommand(launcher);
  return {
    detected:
      `maven: ${goOffline}, then the lifecycle up to test running no test (${launcher.why}), so every ` +
      "dependency, plugin and Surefire's test provider is in the local repository for the offline test run",
    steps: [
      {
        id: 'maven-go-offline',
        ecosystem: Ecosystem.Maven,
        command: goOffline,
        reason: `maven: ${goOffline} (${launcher.why})`,
        inputs,
        caches: cache,
        optional: true,
        cacheOnly: true,
      },
      {
        id: 'maven-resolve-tests',
        ecosystem: Ecosystem.Maven,
        command: resolve,
        reason: "maven: compile and reach the tests once, running none, to fetch every plugin and Surefire's provider",
        inputs,
        caches: cache,
        optional: true,
        cacheOnly: true,
      },
    ],
  };
}

const NONE = 'issueAgentResolvesOnly';
const COMMON =
  '-B --fail-at-end -Dmaven.test.failure.ignore=true -Dsurefire.failIfNoSpecifiedTests=false -DfailIfNoTests=false';
/** Test frameworks' own jars and a class in each: something for Surefire to scan when the project's tests do not compile. */
const SCANNED = 'org.junit.jupiter:junit-jupiter-api,junit:junit,org.testng:testng';
const SCANNED_CLASSES = ['org.junit.jupiter.api.Assertions', 'org.junit.Assert', 'org.testng.Assert'];

/**
 * The lifecycle up to `test` with a filter no test method matches: loads everything, runs
 * nothing. Surefire resolves its provider only when it has test classes to scan, so on a
 * base whose code does not compile (an issue's new test calling what is not written yet)
 * the second command compiles what it can (`failOnError=false`) and gives Surefire the
 * test frameworks' jars to scan instead (`dependenciesToScan`, Surefire 2.15 and later).
 */
function mavenResolveCommand(launcher: MavenLauncher): string {
  const own = `${launcher.program} ${COMMON} '-Dtest=*#${NONE}' test`;
  const scanned =
    `${launcher.program} ${COMMON} -Dmaven.compiler.failOnError=false -DdependenciesToScan=${SCANNED} ` +
    `'-Dtest=${SCANNED_CLASSES.map((c) => `${c}#${NONE}`).join(',')}' test`;
  return `${own} || ${scanned}`;
}

/** `pom.xml` and the poms of its `<modules>`, recursively, worktree-relative. */
async function modulePoms(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (rel: string, depth: number): Promise<void> => {
    if (found.includes(rel) || found.length >= MAX_MODULES) return;
    const text = await readFile(path.join(dir, rel), 'utf8').catch(() => undefined);
    if (text === undefined) return;
    found.push(rel);
    if (depth >= MAX_MODULE_DEPTH) return;
    for (const module of modulesOf(text)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), module));
      if (target.startsWith('..')) continue;
      const pom = target.endsWith('.xml') ? target : path.posix.join(target, 'pom.xml');
      await visit(pom, depth + 1);
    }
  };
  await visit('pom.xml', 0);
  return found;
}

function modulesOf(pom: string): string[] {
  const withoutComments = pom.replace(/<!--[\s\S]*?-->/g, '');
  return [...withoutComments.matchAll(/<module>\s*([^<]+?)\s*<\/module>/g)].map((m) => m[1] ?? '').filter(Boolean);
}
