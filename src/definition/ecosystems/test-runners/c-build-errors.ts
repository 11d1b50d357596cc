/**
 * A C or C++ build that failed before its tests ran (`cmake --build` or `make` in the
 * test command). PURE. Like a Java module that does not compile (surefire-console.ts),
 * this is not a failing test but tests that cannot load, told apart from test failures:
 *
 * - a compiler error (GCC and Clang: `src/calc.c:2:42: error: expected ';'`, also
 *   `fatal error: zlib.h: No such file or directory`) is a load failure named by the
 *   source file, with the compiler's message;
 * - a link error (`undefined reference to \`calc_neg'`, `ld returned 1 exit status`:
 *   an issue's new test calling a function not written yet) is one named by the target
 *   that failed to link, from make's `*** [… : test_sub] Error 1` or Ninja's `FAILED:`.
 *
 * CMake hands the compiler absolute paths, and the worktree's own path is no part of a
 * name, so a path under the source root is made relative: the root is the parent of the
 * build directory CMake reports (`-- Build files have been written to: <root>/build`),
 * or the directory make first entered.
 */
import { failedTest, type FailedTest } from './failed-test.js';
import type { TestRunner } from './test-runner.js';

/** The compiler and linker of a C or C++ build: not a test runner, but what stops one from running. */
export const C_BUILD_ERRORS: TestRunner = {
  name: 'C/C++ compiler and linker',
  failures: (lines) => cBuildErrors(lines),
};

const SOURCE = String.raw`\.(?:c|cc|cpp|cxx|c\+\+|C|h|hh|hpp|hxx|h\+\+|ipp|inl|tcc|m|mm|cu)`;
/** 1 file, 2 line, 3 `fatal ` or nothing, 4 message. */
const COMPILE = new RegExp(String.raw`^(\S.*?${SOURCE}):(\d+)(?::\d+)?: (fatal )?error: (.+)$`);
const LINK =
  /undefined reference to|multiple definition of|ld returned \d+ exit status|symbol\(s\) not found|linker command failed/;
/** make's failed target (`gmake[2]: *** [CMakeFiles/t.dir/build.make:98: test_sub] Error 1`), or Ninja's. */
const FAILED_TARGET = /^(?:g?make(?:\[\d+\])?: \*\*\* \[(?:[^\]]*?: )?([^\]:]+)\] Error \d+|FAILED: (\S+))\s*$/;
const BUILD_DIR = /^-- Build files have been written to: (.+?)\s*$/;
const ENTERING = /^g?make(?:\[\d+\])?: Entering directory ['`](.+?)'\s*$/;

export function cBuildErrors(lines: readonly string[]): FailedTest[] {
  return [...compileErrors(lines), ...linkErrors(lines)];
}

/** One load failure per source file with errors, its first messages as the excerpt. */
function compileErrors(lines: readonly string[]): FailedTest[] {
  const root = sourceRoot(lines);
  const out = new Map<string, string[]>();
  lines.forEach((line, i) => {
    const m = COMPILE.exec(line);
    if (!m?.[1] || !m[4]) return;
    const file = relative(m[1], root);
    const excerpt = out.get(file) ?? [];
    excerpt.push(`${file}:${m[2]}: ${m[3] ?? ''}error: ${m[4]}`);
    // The source line of a missing header: `#include <zlib.h>` is a library not installed (crash-signs.ts).
    const include = /^\s*(?:\d+ \| )?(#\s*include\s*<[^>]+>)/.exec(lines[i + 1] ?? '')?.[1];
    if (include !== undefined) excerpt.push(include);
    out.set(file, excerpt);
  });
  return [...out].map(([file, excerpt]) => failedTest(file, file, excerpt, 'load'));
}

/** One load failure per target that failed to link (the first make or Ninja failure after the linker's error). */
function linkErrors(lines: readonly string[]): FailedTest[] {
  const out = new Map<string, string[]>();
  let pending: string[] = [];
  for (const line of lines) {
    if (LINK.test(line)) {
      if (!pending.includes(line.trim())) pending.push(line.trim());
      continue;
    }
    const target = FAILED_TARGET.exec(line);
    const name = target?.[1] ?? target?.[2];
    if (name === undefined || pending.length === 0) continue;
    // Objects fail to compile, not to link; a recursive make's outer targets repeat the inner one.
    if (/\.(?:o|obj)$/.test(name)) continue;
    out.set(name, [...(out.get(name) ?? []), ...pending]);
    pending = [];
  }
  return [...out].map(([name, excerpt]) => failedTest(name, undefined, excerpt, 'load'));
}

function sourceRoot(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const build = BUILD_DIR.exec(line)?.[1];
    if (build !== undefined) return build.replace(/\/[^/]+\/?$/, '');
    const entered = ENTERING.exec(line)?.[1];
    if (entered !== undefined) return entered;
  }
  return undefined;
}

function relative(file: string, root: string | undefined): string {
  return root !== undefined && file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
}
