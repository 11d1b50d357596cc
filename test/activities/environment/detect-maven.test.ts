/**
 * Maven detection without the network: a pom.xml gives two optional setup steps
 * (go-offline, then the lifecycle up to test running no test) keyed on every module's
 * pom and the build's own config; an executable mvnw is used by setup and the test
 * command alike; the test command is offline and runs every module to the end; the
 * sandbox gets the shared local repository read-only, with configured setup too.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { cacheLayout, worktreeLayout } from '../../../src/activities/environment/cache-layout.js';
import { planConfigured, planDetected } from '../../../src/activities/environment/detect-setup.js';
import { sandboxEnvironment } from '../../../src/activities/environment/sandbox-environment.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { removeTempStateDir, useTempStateDir } from './environment-fixtures.js';

let root: string;
before(async () => {
  await useTempStateDir();
  root = await mkdtemp(path.join(os.tmpdir(), 'env-maven-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
  await removeTempStateDir();
});

let count = 0;
async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = path.join(root, `p${(count += 1)}`);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

const detect = (dir: string) =>
  planDetected({
    dir,
    caches: cacheLayout(dir),
    worktree: worktreeLayout(dir),
    python: { python: 'python3', uv: false },
  });

const REACTOR =
  '<project><modules><module>core</module><!-- <module>old</module> --><module>app/pom.xml</module></modules></project>';

test('pom.xml: go-offline, then the lifecycle up to test running none; inputs are every module pom', async () => {
  const dir = await dirWith({
    'pom.xml': REACTOR,
    'core/pom.xml': '<project/>',
    'app/pom.xml': '<project><modules><module>../core</module></modules></project>',
    '.mvn/maven.config': '-T1\n',
  });
  const plan = await detect(dir);
  assert.ok(plan.sandboxViews.some((view) => 'MAVEN_OPTS' in view.env));
  assert.match(plan.detected.join('\n'), /^maven: mvn -B dependency:go-offline, then the lifecycle up to test/);
  assert.deepEqual(
    plan.steps.map((s) => [s.id, s.optional]),
    [
      ['maven-go-offline', true],
      ['maven-resolve-tests', true],
    ],
  );
  assert.equal(plan.steps[0]?.command, 'mvn -B dependency:go-offline');
  const [own, scanned] = (plan.steps[1]?.command ?? '').split(' || ');
  assert.equal(
    own,
    'mvn -B --fail-at-end -Dmaven.test.failure.ignore=true -Dsurefire.failIfNoSpecifiedTests=false ' +
      "-DfailIfNoTests=false '-Dtest=*#issueAgentResolvesOnly' test",
  );
  // A base that does not compile: Surefire scans the test frameworks' jars instead.
  assert.match(
    scanned ?? '',
    / -Dmaven\.compiler\.failOnError=false -DdependenciesToScan=org\.junit\.jupiter:junit-jupiter-api,/,
  );
  assert.match(
    scanned ?? '',
    /'-Dtest=org\.junit\.jupiter\.api\.Assertions#issueAgentResolvesOnly,org\.junit\.Assert#/,
  );
  assert.deepEqual(plan.steps[0]?.inputs, ['pom.xml', 'core/pom.xml', 'app/pom.xml', '.mvn/maven.config']);
  const { commands } = await detectCommands(dir);
  assert.equal(commands.test, 'mvn -B -o -q --fail-at-end -Dsurefire.failIfNoSpecifiedTests=false test');
});

test('an executable mvnw is used by setup and tests; one without the execute bit is not', async () => {
  const dir = await dirWith({ 'pom.xml': '<project/>', mvnw: '#!/bin/sh\n' });
  assert.match((await detectCommands(dir)).reasons.join('\n'), /mvnw is not executable, so mvn from PATH/);
  assert.equal((await detect(dir)).steps[0]?.command, 'mvn -B dependency:go-offline');
  await chmod(path.join(dir, 'mvnw'), 0o755);
  assert.match((await detectCommands(dir)).commands.test ?? '', /^\.\/mvnw -B -o /);
  assert.deepEqual(
    (await detect(dir)).steps.map((s) => s.command.split(' ')[0]),
    ['./mvnw', './mvnw'],
  );
  assert.deepEqual((await detect(await dirWith({ 'build.xml': '<project/>' }))).sandboxViews, []);
});

test('the sandbox gets the local repository read-only through MAVEN_OPTS, configured setup too', async () => {
  const dir = await dirWith({ 'pom.xml': '<project/>' });
  const caches = cacheLayout(dir);
  for (const plan of [await detect(dir), await planConfigured(dir, ['mvn -B install -DskipTests'], caches)]) {
    const sandbox = sandboxEnvironment({ plan, toolBins: [], toolPrefixes: [] });
    assert.equal(sandbox.env['MAVEN_OPTS'], `-Dmaven.repo.local=${caches.mavenRepo}`);
    assert.ok(sandbox.readOnlyDirs.includes(caches.maven));
  }
});
