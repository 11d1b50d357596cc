/**
 * A Gradle build's test command: `./gradlew` when the wrapper is executable, else
 * `gradle`; offline, every project's tests to the end, plain console. Maven wins when
 * both build files are there (the environment phase prepares only Maven).
 */
import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';

async function detected(files: Record<string, string>, executable: readonly string[] = []) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gradle-detect-'));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    for (const name of executable) await chmod(path.join(dir, name), 0o755);
    return await detectCommands(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('build.gradle(.kts) or settings.gradle: the wrapper when executable, offline and to the end', async () => {
  const kts = await detected({ 'build.gradle.kts': 'plugins { java }\n' });
  assert.equal(kts.commands.test, 'gradle --offline --continue --console=plain test');
  assert.match(
    kts.reasons[0] ?? '',
    /\(build\.gradle\.kts; not prepared by setup yet: docs\/environments\/java-gradle\.md\)/,
  );
  const wrapped = await detected({ 'settings.gradle': "rootProject.name = 'x'\n", gradlew: '#!/bin/sh\n' }, [
    'gradlew',
  ]);
  assert.equal(wrapped.commands.test, './gradlew --offline --continue --console=plain test');
  const notExecutable = await detected({ 'build.gradle': '', gradlew: '#!/bin/sh\n' });
  assert.match(notExecutable.reasons[0] ?? '', /gradlew is not executable, so gradle from PATH/);
  const both = await detected({ 'pom.xml': '<project/>', 'build.gradle': '' });
  assert.match(both.commands.test ?? '', /^mvn /);
});
