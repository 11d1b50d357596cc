/**
 * The test command of a C or C++ project: CMake with CTest tests, an Autotools project,
 * or a Makefile with a `test` or `check` target. Each runs every test to the end, so no
 * failure hides another, and its output names the failures (the C build module's runners
 * in ecosystems/test-runners/: ctest.ts, automake.ts; a build that fails first is told
 * apart, c-build-errors.ts).
 *
 * CMake: configure, build, then CTest from the build directory. CTest runs every test
 * whatever fails. `cd build` rather than `--test-dir build` (CTest 3.20): an older CTest
 * ignores an option it does not know, and would then run in the source directory, find
 * no tests and pass. `--no-tests=error` (3.17) fails a configuration that registered no
 * test (tests behind an option that is off) instead of passing it; `--output-junit`
 * (3.21) writes the JUnit report that names failures exactly (ctest-report-files.ts),
 * ignored by an older CTest, whose console is read instead.
 *
 * Make: `-k` keeps going after a target fails (a test binary that does not build, a
 * failing test in one directory), so the others still build and run. Checked before
 * Maven and Python: a CMake project's `make test` may not run its CTest tests at all,
 * and a Makefile's test target is the project's own entry point.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** CMake commands are case-insensitive; `include(CTest)` calls enable_testing() itself. */
const CMAKE_TESTS = /^\s*(enable_testing|add_test)\s*\(|^\s*include\s*\(\s*CTest\s*\)/im;
export const CTEST_COMMAND =
  'cmake -S . -B build && cmake --build build && cd build && ctest --output-on-failure --no-tests=error --output-junit ctest-junit.xml';

const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'] as const;

export interface CBuildCommand {
  readonly test: string;
  readonly reason: string;
}

async function read(dir: string, file: string): Promise<string | undefined> {
  return readFile(join(dir, file), 'utf8').catch(() => undefined);
}

/** Whether a makefile defines `target` as a rule (`test:`, `check test::`, not `test := 1`). */
export function hasTarget(makefile: string, target: string): boolean {
  return new RegExp(String.raw`^(?:[\w./-]+[ \t]+)*${target}(?:[ \t]+[\w./-]+)*[ \t]*::?(?![:=])`, 'm').test(makefile);
}

export async function detectCBuild(dir: string): Promise<CBuildCommand | undefined> {
  const cmake = await read(dir, 'CMakeLists.txt');
  if (cmake !== undefined && CMAKE_TESTS.test(cmake))
    return {
      test: CTEST_COMMAND,
      reason: 'CMakeLists.txt registers CTest tests; every test runs, failures named from CTest',
    };
  for (const name of MAKEFILES) {
    const makefile = await read(dir, name);
    if (makefile === undefined) continue;
    // GNU make reads the first of these names it finds, so the others are not the project's.
    for (const target of ['test', 'check'])
      if (hasTarget(makefile, target))
        return {
          test: `make -k ${target}`,
          reason: `${name} has a ${target} target; -k keeps going past a failing target`,
        };
    return undefined;
  }
  return autotools(dir);
}

/**
 * An Autotools project keeps its Makefiles out of git: configure makes them (autoreconf
 * makes configure). `VERBOSE=1` has the test harness print each failing test's log.
 */
async function autotools(dir: string): Promise<CBuildCommand | undefined> {
  if ((await read(dir, 'Makefile.am')) === undefined) return undefined;
  if ((await read(dir, 'configure')) !== undefined)
    return {
      test: 'sh ./configure && make -k check VERBOSE=1',
      reason: 'Makefile.am with a configure script (Automake)',
    };
  if ((await read(dir, 'configure.ac')) !== undefined || (await read(dir, 'configure.in')) !== undefined)
    return {
      test: 'autoreconf -fi && sh ./configure && make -k check VERBOSE=1',
      reason: 'Makefile.am and configure.ac (Automake; needs autoconf and automake installed)',
    };
  return undefined;
}
