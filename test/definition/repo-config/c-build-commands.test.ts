/**
 * The test command of a C or C++ project: CMake with CTest tests (configure, build, CTest
 * from the build dir, every test to the end, JUnit asked for), a Makefile's `test` or
 * `check` target with `-k`, an Autotools project (configure, then `make -k check`).
 * The CMake command is also run here on a generated project, so it is known to work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { CTEST_COMMAND, hasTarget } from '../../../src/definition/repo-config/c-build-commands.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { parseTestFailures } from '../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { ctestReports } from '../../../src/activities/conditions/test-reports/ctest-report-files.js';

async function detected(files: Record<string, string>): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'c-detect-'));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return (await detectCommands(dir)).commands.test;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('CMake with CTest tests, a Makefile test or check target, Autotools: each runs every test to the end', async () => {
  const cases: Array<[Record<string, string>, string | undefined]> = [
    [{ 'CMakeLists.txt': 'project(x C)\ninclude(CTest)\n', Makefile: 'test:\n\t./t\n' }, CTEST_COMMAND],
    [{ 'CMakeLists.txt': 'project(x C)\nadd_executable(x x.c)\n', Makefile: 'test:\n\t./x\n' }, 'make -k test'],
    [{ Makefile: 'all: x\ncheck: all\n\t./run-tests\n' }, 'make -k check'],
    [{ Makefile: '.PHONY: test check\ncheck test: all\n\t./run\n' }, 'make -k test'],
    [{ Makefile: 'test := unit\nall:\n\tcc x.c\n', 'go.mod': 'module x\n' }, 'go test ./...'],
    [{ GNUmakefile: 'check::\n\t./t\n', Makefile: 'test:\n\t./other\n' }, 'make -k check'],
    [
      { 'Makefile.am': 'TESTS = t\n', 'configure.ac': 'AC_INIT([x], [1])\n' },
      'autoreconf -fi && sh ./configure && make -k check VERBOSE=1',
    ],
    [
      { 'Makefile.am': 'TESTS = t\n', 'configure.ac': '', configure: '#!/bin/sh\n' },
      'sh ./configure && make -k check VERBOSE=1',
    ],
  ];
  for (const [files, expected] of cases) assert.equal(await detected(files), expected, JSON.stringify(files));
  assert.ok(hasTarget('x.o: x.c\ntest: x.o\n', 'test'));
  assert.ok(!hasTarget('unit-test: x\n', 'test'));
  assert.ok(!hasTarget('test ::= 1\n', 'test'));
});

const cmake = await execa('cmake', ['--version'], { reject: false }).then(
  (r) => r.exitCode === 0,
  () => false,
);

test(
  'the detected CMake command on a real project: a red test named from the console and the JUnit',
  { skip: cmake ? false : 'cmake is not installed' },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'c-cmake-'));
    try {
      await mkdir(join(dir, 'tests'));
      await writeFile(
        join(dir, 'CMakeLists.txt'),
        'cmake_minimum_required(VERSION 3.10)\nproject(t C)\nenable_testing()\nadd_executable(t tests/t.c)\nadd_test(NAME ok COMMAND t 0)\nadd_test(NAME red COMMAND t 1)\n',
      );
      await writeFile(
        join(dir, 'tests/t.c'),
        '#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) { if (atoi(v[1])) puts("red: expected 1, got 2"); return atoi(v[1]); }\n',
      );
      const started = Date.now();
      const run = await execa('sh', ['-c', CTEST_COMMAND], { cwd: dir, reject: false, all: true });
      assert.equal(run.exitCode, 8, run.all);
      assert.deepEqual(
        parseTestFailures(run.all ?? '').map((t) => [t.name, t.excerpt]),
        [['red', 'red: expected 1, got 2\nctest: Failed']],
      );
      const junit = await ctestReports(dir, started);
      assert.equal(
        junit.length,
        1,
        await readFile(join(dir, 'build/ctest-junit.xml'), 'utf8').catch(() => 'no report'),
      );
      assert.deepEqual(
        parseTestFailures('', { ctestJunit: junit }).map((t) => t.name),
        ['red'],
      );
      // Tests switched off by an option: an error, not a green run of nothing.
      await writeFile(
        join(dir, 'CMakeLists.txt'),
        'cmake_minimum_required(VERSION 3.10)\nproject(t C)\nenable_testing()\n',
      );
      const none = await execa('sh', ['-c', CTEST_COMMAND], { cwd: dir, reject: false, all: true });
      assert.notEqual(none.exitCode, 0, none.all);
      assert.match(none.all ?? '', /No tests were found/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
