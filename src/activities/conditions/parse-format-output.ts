/**
 * Files `prettier --check` reports as unformatted (`[warn] path`) or unparsable
 * (`[error] path: SyntaxError …`). PURE: bundle-safe.
 */
import { stripAnsi } from './strip-ansi.js';

export function parseFormatOutput(output: string): string[] {
  const files: string[] = [];
  for (const raw of stripAnsi(output).split(/\r?\n/)) {
    const warn = /^\[warn\] (\S.*?)\s*$/.exec(raw);
    if (warn?.[1] && !/^Code style issues/.test(warn[1]) && !/^All matched files/.test(warn[1])) files.push(warn[1]);
    const error = /^\[error\] ([^\s:]+): /.exec(raw);
    if (error?.[1]) files.push(error[1]);
  }
  return [...new Set(files)];
}
