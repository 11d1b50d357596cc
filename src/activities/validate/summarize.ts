/**
 * One or two lines saying what a validator saw: the command, how it ended, and the
 * first meaningful line of its output. PURE. These lines reach the retry prompt and
 * the Web UI, so they are short and free of colour codes.
 */
import { stripAnsi } from './strip-ansi.js';

const MAX_LINE = 200;

/** The most telling line: the first that looks like an error, else the first non-empty one. */
export function firstMeaningfulLine(text: string): string | undefined {
  const lines = stripAnsi(text)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^[-=⎯─\s]+$/.test(l) && !/^(RUN|TAP version)\b/.test(l));
  const telling = lines.find((l) => /\b(error|fail(ed|ure)?|not ok)\b|✖|×|✕|●|denied|not found/i.test(l));
  const line = telling ?? lines[0];
  return line === undefined ? undefined : line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

export function commandSummary(options: { command: string; ended: string; stdout: string; stderr: string }): string {
  const head = `\`${shorten(options.command)}\` ${options.ended}`;
  const detail = firstMeaningfulLine(options.stderr) ?? firstMeaningfulLine(options.stdout);
  return detail === undefined ? head : `${head}\n${detail}`;
}

function shorten(command: string): string {
  const one = command.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
}
