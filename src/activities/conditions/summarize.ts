/**
 * One or two lines saying what a validator saw: the command, how it ended, and the
 * first named failing test (name and assertion) or else the first meaningful line of
 * its output. PURE. These lines reach the retry prompt and
 * the Web UI, so they are short and free of colour codes.
 */
import type { CommandOutcome } from '../process/command-runner.js';
import { stripAnsi } from './strip-ansi.js';
import type { FailedTest } from '../../definition/ecosystems/test-runners/failed-test.js';

const MAX_LINE = 200;

/** The most telling line: the first that looks like an error, else the first non-empty one. */
export function firstMeaningfulLine(text: string): string | undefined {
  const lines = stripAnsi(text)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^[-=⎯─\s]+$/.test(l) && !/^(RUN|TAP version)\b/.test(l) && !isNoise(l));
  const telling = lines.find((l) => /\b(error|fail(ed|ure)?|not ok)\b|✖|×|✕|●|denied|not found/i.test(l));
  const line = telling ?? lines[0];
  return line === undefined ? undefined : clip(line);
}

/**
 * The package managers' own lines around a script: npm's and pnpm's `> pkg@1.0.0 test`
 * banner and the script line under it (`> mocha`), config warnings; yarn classic's
 * `yarn run v1.22.22`, `$ jest`, `error Command failed with exit code 1.` (once per nested
 * `yarn` call), its `info Visit …` line, and the warning it prints on every command in
 * the offline sandbox (`warning You don't appear to have an internet connection…`: it
 * finds no network interface but the loopback). They say nothing about the failure.
 * (Trimmed lines.)
 */
export function isNoise(line: string): boolean {
  return (
    /^> \S/.test(line) ||
    /^npm (warn|notice)\b/i.test(line) ||
    /^(ELIFECYCLE|WARN)\s/.test(line) ||
    /^yarn run v\d/.test(line) ||
    /^\$ \S/.test(line) ||
    /^error Command failed with exit code \d+\.$/.test(line) ||
    /^info Visit https:\/\/yarnpkg\.com\//.test(line) ||
    /^warning You don't appear to have an internet connection\./.test(line)
  );
}

/** `name: first line of its excerpt`, and how many more failed. */
export function failureLine(failures: readonly FailedTest[]): string | undefined {
  const first = failures[0];
  if (first === undefined) return undefined;
  const why = first.excerpt === undefined ? undefined : excerptHead(first.excerpt);
  const more = failures.length > 1 ? ` (+${failures.length - 1} more)` : '';
  return clip(`${first.name}${why ? `: ${why}` : ''}${more}`);
}

/**
 * The first line of an excerpt that says what went wrong: a header that only announces
 * what follows ("Expected values to be strictly equal:") is joined with the next line
 * that is not a legend ("+ actual - expected") nor a bracket alone, so the line says `3 !== 4`.
 */
function excerptHead(excerpt: string): string | undefined {
  const lines = excerpt
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => !/^([{}[\](),]*|\+ actual - expected( \.\.\. Lines skipped)?)$/.test(line))
    .map((line) => line.replace(/\s+/g, ' '));
  const [head, next] = lines;
  return head !== undefined && head.endsWith(':') && next !== undefined ? `${head} ${next}` : head;
}

export function commandSummary(options: {
  command: string;
  ended: string;
  stdout: string;
  stderr: string;
  /** Named failing tests: the first one says more than any output line. */
  failures?: readonly FailedTest[];
}): string {
  const head = `\`${shorten(options.command)}\` ${options.ended}`;
  const detail =
    failureLine(options.failures ?? []) ?? firstMeaningfulLine(options.stderr) ?? firstMeaningfulLine(options.stdout);
  return detail === undefined ? head : `${head}\n${detail}`;
}

function clip(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

function shorten(command: string): string {
  const one = command.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
}

/** A command's whole output as saved for the run's artifacts: the command, all it printed, how it ended. */
export function fullOutput(command: string, outcome: CommandOutcome): string {
  const end = outcome.kind === 'exited' ? `exit ${outcome.exitCode}` : (outcome.error ?? outcome.kind);
  return `$ ${command}\n${outcome.all}\n[${end}, ${outcome.durationMs} ms]\n`;
}
