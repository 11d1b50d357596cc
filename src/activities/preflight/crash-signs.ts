/**
 * Signs that a command crashed or could not load what it runs, rather than reporting
 * ordinary failures: an uncaught exception's header, a panic, a collection error, a
 * missing dependency. Used by the preflight on the base commit, where such output means
 * the environment (not the agent) is at fault. PURE.
 */
import { stripAnsi } from '../conditions/strip-ansi.js';

/** A dependency the project needs is not installed (as opposed to a test's own assertion). */
export const MISSING_DEPENDENCY: readonly RegExp[] = [
  /ModuleNotFoundError: No module named '[^']+'/,
  /ImportError: cannot import name/,
  /Error: Cannot find module '(?![./])[^']+'/,
  /Cannot find (?:module|package) '(?![./])[^']+'/,
  /ERR_MODULE_NOT_FOUND/,
  /no required module provides package \S+/,
  /cannot find package "[^"]+"/,
  /error\[E0432\]: unresolved import/,
  /error: failed to (?:download|load|get) /,
  // C and C++: a library's header (`#include <zlib.h>`, not the project's own "calc.h"), a CMake package, pkg-config.
  /error: (?:([^\s':]+): No such file or directory|'([^']+)' file not found)\n\s*(?:\d+ \| )?#\s*include\s*<(?:\1|\2)>/,
  /By not providing "Find[\w.+-]+\.cmake"|Could NOT find \w+|No package '[^']+' found|Package '[^']+', required by '[^']*', not found/,
];

/** The output of a process that stopped abnormally or never got to run its tests. */
export const CRASH: readonly RegExp[] = [
  /^Traceback \(most recent call last\):/m,
  /^INTERNALERROR>/m,
  /^ImportError while (?:loading conftest|importing test module)/m,
  /Interrupted: \d+ errors? during collection/,
  /^panic: /m,
  /^fatal error: /m,
  /Segmentation fault|core dumped|SIGSEGV|SIGABRT/,
  /^\S*(?:Syntax|Reference|Type)Error: /m,
  /^Error: Cannot find module/m,
  /^node:internal\/\S+:\d+$/m,
  /FATAL ERROR: .*JavaScript heap out of memory/,
  /\[(?:build|setup) failed\]/,
  /^error(?:\[E\d+\])?: could not compile/m,
  /^error: test failed, to rerun/m,
  /no tests ran|collected 0 items/,
];

export interface Sign {
  readonly kind: 'missing-dependency' | 'crash';
  /** The line that matched and the few after it that explain it. */
  readonly lines: readonly string[];
}

/** The first sign found, missing dependencies before crashes (they explain the crash). */
export function findSign(text: string): Sign | undefined {
  const clean = stripAnsi(text);
  for (const [kind, patterns] of [
    ['missing-dependency', MISSING_DEPENDENCY],
    ['crash', CRASH],
  ] as const) {
    for (const pattern of patterns) {
      const m = pattern.exec(clean);
      if (m !== null) return { kind, lines: linesAround(clean, m.index) };
    }
  }
  return undefined;
}

/** The matching line and up to four non-blank lines after it, stack frames left out. */
export function linesAround(text: string, index: number, after = 4): string[] {
  const start = text.lastIndexOf('\n', index) + 1;
  const lines = text.slice(start).split(/\r?\n/);
  const out = [lines[0]?.trimEnd() ?? ''];
  for (const line of lines.slice(1)) {
    if (out.length > after) break;
    if (line.trim() === '' || /^\s+at\s|^\s*File "|^\s+\/\S+:\d+ \+0x/.test(line)) continue;
    out.push(line.trimEnd());
  }
  return out;
}
