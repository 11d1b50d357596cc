/**
 * C + CMake + CTest, as a new user meets it: a CMakeLists.txt registering two CTest
 * tests (a library and one test program, no dependency beyond the C library) on a fresh
 * clone with nothing built. A planted bug and a scripted fix: nothing needs installing
 * (the environment phase has no C setup), the detected command configures, builds and
 * runs CTest offline in the sandbox, the preflight keeps the red test on main as the
 * baseline by its CTest name (`calc_sub`, from the JUnit report and the console), and
 * the run delivers the fix alone. Skipped without `cmake` or a C compiler.
 *
 * The same project getting a library with FetchContent (from a local HTTP server, which
 * the sandbox's own network namespace cannot reach): setup configures once with the
 * network into the ignored `build/`, and the offline configure of the test command
 * finds the download there.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { assertSucceeded } from './run-diagnosis.js';

const works = async (cmd: string, args: string[]): Promise<boolean> =>
  execa(cmd, args, { reject: false }).then(
    (r) => r.exitCode === 0,
    () => false,
  );
const tools = (await works('cmake', ['--version'])) && (await works('cc', ['--version']));

const BUGGY = 'return b + a;';
const RIGHT = 'return a - b;';
const TEST_COMMAND =
  'cmake -S . -B build && cmake --build build && cd build && ctest --output-on-failure --no-tests=error --output-junit ctest-junit.xml';

const FILES = {
  'CMakeLists.txt': [
    'cmake_minimum_required(VERSION 3.10)',
    'project(calc C)',
    'enable_testing()',
    'add_library(calc src/calc.c)',
    'target_include_directories(calc PUBLIC src)',
    'add_executable(calc_test tests/calc_test.c)',
    'target_link_libraries(calc_test calc)',
    'add_test(NAME calc_add COMMAND calc_test add)',
    'add_test(NAME calc_sub COMMAND calc_test sub)',
    '',
  ].join('\n'),
  '.gitignore': 'build/\n',
  'src/calc.h':
    '/* Integer arithmetic for the calculator. */\nint calc_add(int a, int b);\nint calc_sub(int a, int b);\n',
  'src/calc.c': [
    '#include "calc.h"',
    '',
    'int calc_add(int a, int b) { return a + b; }',
    '',
    `int calc_sub(int a, int b) { ${BUGGY} }`,
    '',
  ].join('\n'),
  'tests/calc_test.c': [
    '#include <stdio.h>',
    '#include <string.h>',
    '#include "calc.h"',
    '',
    '/* One check per CTest test, chosen by name, so each is reported on its own. */',
    'int main(int argc, char **argv) {',
    '  int got, want;',
    '  if (argc > 1 && strcmp(argv[1], "sub") == 0) got = calc_sub(3, 2), want = 1;',
    '  else got = calc_add(2, 3), want = 5;',
    '  if (got == want) return 0;',
    '  fprintf(stderr, "%s: expected %d, got %d\\n", argc > 1 ? argv[1] : "add", want, got);',
    '  return 1;',
    '}',
    '',
  ].join('\n'),
};

const ISSUE = {
  title: 'calc_sub adds instead of subtracting',
  body: 'calc_sub(3, 2) returns 5; it should return 1 (the calc_sub CTest test fails).',
};

let origin: TempGitRepo | undefined;
let server: Server | undefined;
let tarball: string | undefined;

before(async () => {
  if (tools) origin = await makeOrigin(FILES);
});

after(async () => {
  await origin?.cleanup();
  server?.close();
  if (tarball !== undefined) await rm(join(tarball, '..'), { recursive: true, force: true });
  await removeStateDir();
  await teardownEnv();
});

// The two cases are two repositories (FetchContent's its own origin): they run at once.
describe('CMake and CTest', { concurrency: 2 }, () => {
  test(
    'a fresh clone: configure, build and CTest in the sandbox, the red CTest test is the baseline by name, the fix delivered',
    { skip: tools ? false : 'cmake or a C compiler is not installed' },
    async () => {
      assert.ok(origin);
      const session = fixSession({
        name: 'calc',
        fix: { path: 'src/calc.c', old: BUGGY, new: RIGHT },
        testCommand: TEST_COMMAND,
      });
      const run = await runOnFreshClone({ origin, issue: ISSUE, session });
      assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
      assert.match(run.cli.stderr, /test: cmake -S \. -B build .*ctest --output-on-failure/);
      await assertSucceeded(run);
      assert.deepEqual(await run.changedOnBranch(), ['src/calc.c']);
      const environment = (run.result?.environment ?? []).join('\n');
      assert.match(environment, /c\/c\+\+: CMakeLists\.txt: nothing to fetch/);
      assert.match(environment, /preflight: tests: baseline .*calc_sub/);
      assert.doesNotMatch(environment, /preflight: tests: baseline .*calc_add/);
    },
  );

  /** A one-header library as a .tar.gz, served on loopback: the URL FetchContent downloads. */
  async function serveLibrary(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'cmake-fetch-'));
    await mkdir(join(dir, 'mini'));
    await writeFile(
      join(dir, 'mini', 'CMakeLists.txt'),
      'add_library(mini INTERFACE)\ntarget_include_directories(mini INTERFACE .)\n',
    );
    await writeFile(join(dir, 'mini', 'mini.h'), '#define MINI_WANT(x) (x)\n');
    await execa('tar', ['-czf', 'mini.tar.gz', 'mini'], { cwd: dir });
    tarball = join(dir, 'mini.tar.gz');
    const body = await readFile(tarball);
    server = createServer((_req, res) => res.end(body));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mini.tar.gz`;
  }

  test(
    'FetchContent: setup downloads while it has the network, the offline test command finds it, the fix delivered',
    { skip: tools ? false : 'cmake or a C compiler is not installed' },
    async () => {
      const url = await serveLibrary();
      const cmake = FILES['CMakeLists.txt']
        .replace(
          'enable_testing()',
          `include(FetchContent)\nFetchContent_Declare(mini URL ${url})\nFetchContent_MakeAvailable(mini)\nenable_testing()`,
        )
        .replace('target_link_libraries(calc_test calc)', 'target_link_libraries(calc_test calc mini)');
      const test = FILES['tests/calc_test.c']
        .replace('#include "calc.h"', '#include "calc.h"\n#include "mini.h"')
        .replace('want = 1;', 'want = MINI_WANT(1);');
      const fetching = await makeOrigin({ ...FILES, 'CMakeLists.txt': cmake, 'tests/calc_test.c': test });
      try {
        const session = fixSession({
          name: 'calc-fetch',
          fix: { path: 'src/calc.c', old: BUGGY, new: RIGHT },
          testCommand: TEST_COMMAND,
        });
        // The library's server listens on a port of its own, which the operator allows as a registry's.
        const env = { ISSUE_AGENT_SETUP_PORTS: new URL(url).port };
        const run = await runOnFreshClone({ origin: fetching, issue: ISSUE, session, env });
        const environment = (run.result?.environment ?? []).join('\n');
        await assertSucceeded(run, environment);
        assert.deepEqual(await run.changedOnBranch(), ['src/calc.c']);
        assert.match(environment, /cmake: FetchContent_Declare in CMakeLists\.txt downloads at configure time/);
        assert.match(environment, /preflight: tests: baseline .*calc_sub/);
      } finally {
        await fetching.cleanup();
      }
    },
  );
});
