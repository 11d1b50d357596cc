/**
 * Whether a validator command on the base commit could not run at all, as opposed to
 * running and reporting failures. PURE.
 *
 * A shell says so with exit 127 (not found) or 126 (not executable). A wrapper often
 * hides it behind another exit code: `make` turns the 127 of a recipe into `Error 127`
 * and exits 2, npm exits 254 when there is no package.json (printing nothing with
 * `--silent`), tox and uv report a program they could not spawn, Maven cannot resolve a
 * plugin or a dependency offline, Gradle's wrapper tries to download Gradle. Recorded as "failing on the base", each of these cost
 * every model request of a run that could never pass; the preflight stops instead.
 *
 * Only the exit codes count whatever the output; a wrapper's sign counts only when the
 * output names no failing test (a runner that ran and named failures was found).
 */
import { ECOSYSTEMS } from '../../definition/ecosystems/ecosystem-registry.js';
import { Remedy, type CouldNotRunSign } from '../../definition/ecosystems/could-not-run-sign.js';
import { stripAnsi } from '../conditions/strip-ansi.js';
import { parseTestFailures, testFailures, type TestReports } from '../conditions/test-reports/parse-test-failures.js';

export { Remedy } from '../../definition/ecosystems/could-not-run-sign.js';

export interface CouldNotRun {
  /** What was seen, in words: `make: a program its recipe runs was not found (Error 127)`. */
  readonly seen: string;
  /** The output lines that show it (a few at most). */
  readonly lines: readonly string[];
  readonly remedy: Remedy;
  /** The program that was not found, when the output names it. */
  readonly program?: string;
}

export interface CommandRun {
  readonly command: string;
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly reports?: TestReports;
}

type Sign = CouldNotRunSign;

/** The program a shell, env or a wrapper could not find or start. */
const NOT_FOUND: readonly RegExp[] = [
  // sh: 1: mocha: not found / bash: line 1: jest: command not found / pyenv: python2.7: command not found
  /^(?:\S*\/)?(?:ba|da|z|k)?sh: (?:line \d+: )?(?:\d+: )?([^\s:]+): (?:command )?not found\s*$/m,
  /^[\w./-]+: (?:line \d+: )?([^\s:]+): command not found\s*$/m,
  // bash: line 1: ./run.py: cannot execute: required file not found (its interpreter is missing)
  /^[\w./-]+: (?:line \d+: )?([^\s:]+): cannot execute: required file not found/m,
  // /usr/bin/env: ‘python2’: No such file or directory (a script's interpreter)
  /^(?:\S*\/)?env: [‘'"`]([^’'"`]+)[’'"`]: No such file or directory/m,
  // make: uv: No such file or directory (make runs a simple recipe line without a shell)
  /^g?make(?:\[\d+\])?: ([^\s:]+): No such file or directory\s*$/m,
  // tox 4: py: Exception running subprocess [Errno 2] No such file or directory: 'pytest'
  /Exception running subprocess \[Errno 2\] No such file or directory: '([^']+)'/,
  // uv run: error: Failed to spawn: `pytest`
  /^error: Failed to spawn: `?([^`\s]+)`?/m,
  // pnpm: Command "vitest" not found; yarn berry and zsh: command not found: mocha
  /\bCommand "([^"]+)" not found\b/,
  /\bcommand not found: (\S+)/,
];

/** The shell's and make's own signs, then each ecosystem's in registry order. */
const SIGNS: readonly Sign[] = [
  ...NOT_FOUND.map((match) => ({ match, seen: 'a program it runs was not found', remedy: Remedy.Install })),
  {
    match: /^g?make(?:\[\d+\])?: \*\*\* \[[^\]]*\] Error 127\b/m,
    seen: 'make: a program its recipe runs was not found (Error 127)',
    remedy: Remedy.Install,
  },
  {
    match: /^g?make(?:\[\d+\])?: \*\*\* \[[^\]]*\] Error 126\b/m,
    seen: 'make: a program its recipe runs is not executable (Error 126)',
    remedy: Remedy.Install,
  },
  {
    match: /^g?make(?:\[\d+\])?: \*\*\* No rule to make target/m,
    seen: 'make has no such target here',
    remedy: Remedy.OtherCommand,
  },
  ...ECOSYSTEMS.flatMap((ecosystem) => ecosystem.couldNotRun ?? []),
];

export function couldNotRun(run: CommandRun): CouldNotRun | undefined {
  const text = stripAnsi(`${run.stderr}\n${run.stdout}`);
  const found = firstSign(text);
  const lines = found?.lines ?? [];
  if (run.exitCode === 127 || run.exitCode === 126) {
    const what = run.exitCode === 127 ? 'was not found' : 'is not executable (or a file it needs is not readable)';
    // Without a sign, the program is the command's own first word, if it runs only that.
    const program =
      found !== undefined ? found.program : /[;&|]/.test(run.command) ? undefined : firstWord(run.command);
    return {
      seen: `a program it runs ${what}`,
      lines,
      remedy: Remedy.Install,
      ...(program === undefined ? {} : { program }),
    };
  }
  if (run.exitCode === 254 && /^np[mx]$/.test(firstWord(run.command) ?? ''))
    return {
      seen: 'npm could not find a file it needs, usually package.json (ENOENT)',
      lines,
      remedy: Remedy.OtherCommand,
    };
  if (run.exitCode === 0 || found === undefined) return undefined;
  if (testFailures(parseTestFailures(text, run.reports)).length > 0) return undefined;
  const { sign, program } = found;
  return { seen: sign.seen, lines, remedy: sign.remedy, ...(program === undefined ? {} : { program }) };
}

/** Lines are shown up to about this long (preflight-stop.ts). */
const LONG_LINE = 200;

interface Found {
  readonly sign: Sign;
  readonly lines: readonly string[];
  readonly program?: string;
}

/** The first sign in the output, with every line that shows a sign (at most four). */
function firstSign(text: string): Found | undefined {
  let first: { sign: Sign; program?: string } | undefined;
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const sign = SIGNS.find((s) => s.match.test(line));
    if (sign === undefined) continue;
    if (lines.length < 4) lines.push(fromSign(line.trim(), sign.match));
    if (first !== undefined) continue;
    const program = sign.match
      .exec(line)
      ?.slice(1)
      .find((group) => group !== undefined);
    first = { sign, ...(program === undefined ? {} : { program }) };
  }
  return first === undefined ? undefined : { ...first, lines };
}

/**
 * A long line from where its sign starts (Maven's `[ERROR] Failed to execute goal …` runs
 * for hundreds of characters before it says which artifact it could not resolve).
 */
function fromSign(line: string, match: RegExp): string {
  const at = match.exec(line)?.index ?? 0;
  return line.length <= LONG_LINE || at < LONG_LINE / 2 ? line : `…${line.slice(at)}`;
}

/** The command line's first word after `VAR=value` assignments: the program it starts. */
function firstWord(command: string): string | undefined {
  return command
    .trim()
    .split(/\s+/)
    .find((w) => w !== '' && !/^\w+=/.test(w));
}
