/**
 * Failures that retrying with the model cannot fix: the command is not installed
 * (exit 127), not executable (126) or lacks permissions, or a tool in front of the
 * runner said so with an ordinary exit 1: a package manager or shell that cannot find
 * the runner, dependencies never installed, python without pytest. Reported so the
 * completion loop stops instead of burning iterations (upstream behaviour §4.2). PURE.
 *
 * Not unrecoverable: a test that fails on a missing module *of the project under test*
 * (pytest collecting `ModuleNotFoundError: No module named 'mypkg.newmod'`, jest's
 * `Cannot find module './missing'`). After the agent's change that is usually its own
 * doing (a test importing code it has not written yet), and it is a named load failure
 * the retry prompt shows. The same output on the unchanged base commit is an
 * environment failure: that is the preflight's call (preflight/classify-preflight.ts),
 * which sees the base before the agent touches anything.
 *
 * The tool-reported patterns and "permission denied" only count when the output names no
 * failing test: a runner that ran and reported failures was found, whatever a test printed.
 */
import { MISSING_TOOL, type UnrecoverablePattern } from '../../definition/ecosystems/ecosystem.js';
import { ECOSYSTEMS } from '../../definition/ecosystems/ecosystem-registry.js';
import { parseTestFailures, testFailures } from './test-reports/parse-test-failures.js';

/** The shell's own "not found", then each ecosystem's patterns in registry order; the first match gives the reason. */
export const ENVIRONMENT_PATTERNS: readonly UnrecoverablePattern[] = [
  // sh: 1: mocha: not found / bash: line 1: jest: command not found / /bin/sh: go: command not found
  {
    match: /^(?:\/\S+\/)?(?:ba|da|z)?sh: (?:line )?(?:\d+: )?[^\s:]+: (?:command )?not found\s*$/m,
    reason: MISSING_TOOL,
  },
  ...ECOSYSTEMS.flatMap((ecosystem) => ecosystem.unrecoverable ?? []),
];

export function unrecoverableReason(result: {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}): string | undefined {
  if (result.exitCode === 127) return 'command not found; install it or fix the validator command';
  if (result.exitCode === 126) return 'command not executable; fix its permissions or the validator command';
  const text = `${result.stderr}\n${result.stdout}`;
  // Like the tool patterns: a runner that named failing tests ran, whatever a test (or a
  // script of the repository) printed about a file it could not open.
  if (/Permission denied|EACCES/.test(text) && testFailures(parseTestFailures(text)).length === 0)
    return 'permission denied; the worker cannot run this command or access its files';
  if (result.exitCode === 0) return undefined;
  return environmentProblem(text)?.reason;
}

/** The environment pattern the output matches and its line, unless the output names failing tests. */
export function environmentProblem(text: string): { readonly reason: string; readonly line: string } | undefined {
  for (const pattern of ENVIRONMENT_PATTERNS) {
    const m = pattern.match.exec(text);
    if (m === null) continue;
    if (testFailures(parseTestFailures(text)).length > 0) return undefined;
    const start = text.lastIndexOf('\n', m.index) + 1;
    const end = text.indexOf('\n', m.index);
    return { reason: pattern.reason, line: text.slice(start, end === -1 ? undefined : end).trim() };
  }
  return undefined;
}
