/**
 * CMake in the environment phase: a project that downloads at configure time
 * (FetchContent, ExternalProject, CPM; in the root CMakeLists.txt, `cmake/*.cmake` or a
 * subdirectory's) is configured once during setup, and only when git ignores `build/`;
 * any other CMake or Autotools project fetches nothing and says so. The configure
 * command's refusal is run for real on a repository that does not ignore build/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { CMAKE_CONFIGURE, detectCMake } from '../../../src/definition/ecosystems/cmake-setup.js';

async function withFiles<T>(files: Record<string, string>, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'detect-cmake-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('downloads at configure time: one optional configure step, keyed on the files that download', async () => {
  const cases: Array<[Record<string, string>, string | undefined, readonly string[]]> = [
    [
      { 'CMakeLists.txt': 'include(FetchContent)\nFetchContent_Declare(gtest URL https://x/y.zip)\n' },
      'FetchContent_Declare in CMakeLists.txt',
      ['CMakeLists.txt'],
    ],
    [
      {
        'CMakeLists.txt': 'add_subdirectory(tests)\n',
        'tests/CMakeLists.txt': 'fetchcontent_declare(catch2 GIT_REPOSITORY x)\n',
      },
      'fetchcontent_declare in tests/CMakeLists.txt',
      ['CMakeLists.txt', 'tests/CMakeLists.txt'],
    ],
    [
      { 'CMakeLists.txt': 'include(cmake/deps.cmake)\n', 'cmake/deps.cmake': '  CPMAddPackage(NAME fmt)\n' },
      'CPMAddPackage in cmake/deps.cmake',
      ['CMakeLists.txt', 'cmake/deps.cmake'],
    ],
    [
      { 'CMakeLists.txt': 'project(x C)\nenable_testing()\n# FetchContent_Declare( is only mentioned\n' },
      undefined,
      [],
    ],
    [{ 'CMakeLists.txt': 'ExternalProject_Add(zlib URL https://x/z.tgz)\n' }, undefined, []],
  ];
  for (const [files, why, inputs] of cases) {
    const plan = await withFiles(files, detectCMake);
    assert.ok(plan, JSON.stringify(files));
    const [step] = plan.steps;
    if (why === undefined) {
      assert.equal(step, undefined);
      assert.match(plan.detected, /^c\/c\+\+: CMakeLists\.txt: nothing to fetch/);
      continue;
    }
    assert.match(plan.detected, new RegExp(`^cmake: ${why} downloads at configure time`));
    assert.deepEqual([step?.command, step?.optional, step?.inputs], [CMAKE_CONFIGURE, true, inputs]);
    // Absolute, in the worktree: a relative path was looked up from the worker's directory,
    // so the step never counted as done and configured again on every preparation.
    assert.match(step?.produces ?? '', /^\/.+\/build\/CMakeCache\.txt$/);
  }
  assert.match(
    (await withFiles({ 'Makefile.am': 'TESTS = t\n' }, detectCMake))?.detected ?? '',
    /Makefile\.am: nothing to fetch/,
  );
  assert.equal(await withFiles({ Makefile: 'test:\n' }, detectCMake), undefined);
});

test('the configure step keeps later configures from updating (a branch would be fetched again, offline)', () => {
  assert.match(CMAKE_CONFIGURE, /cmake -S \. -B build -DFETCHCONTENT_UPDATES_DISCONNECTED=ON;/);
});

test('the configure step refuses a build/ git does not ignore (the agent would commit it)', async () => {
  await withFiles({ 'CMakeLists.txt': 'project(x NONE)\n' }, async (dir) => {
    await execa('git', ['init', '-q'], { cwd: dir });
    const refused = await execa('sh', ['-c', CMAKE_CONFIGURE], { cwd: dir, reject: false });
    assert.equal(refused.exitCode, 1);
    assert.match(refused.stderr, /build\/ is not ignored by git/);
  });
});
