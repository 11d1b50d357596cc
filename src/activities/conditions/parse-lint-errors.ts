/**
 * ESLint problems from its `stylish` (default) or `unix` formatter. PURE: bundle-safe.
 *
 * stylish: a file path line, then `  3:7  error  message  rule-id` lines;
 * unix:    `path:3:7: message [Error/rule-id]`.
 * Warnings are kept (with their severity) because `--max-warnings 0` makes them fail.
 */
import { stripAnsi } from './strip-ansi.js';

export interface LintError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning';
  /** Rule id; empty for parsing errors, which have none. */
  readonly rule: string;
  readonly message: string;
}

const STYLISH_PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?\s*$/;
const UNIX_PROBLEM = /^(.+?):(\d+):(\d+): (.*?)(?: \[(Error|Warning)(?:\/([^\]]+))?\])?\s*$/;

export function parseLintErrors(output: string): LintError[] {
  const lines = stripAnsi(output).split(/\r?\n/);
  const errors: LintError[] = [];
  let file: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const stylish = STYLISH_PROBLEM.exec(line);
    if (stylish && file !== undefined) {
      errors.push({
        file,
        line: Number(stylish[1]),
        column: Number(stylish[2]),
        severity: stylish[3] === 'warning' ? 'warning' : 'error',
        rule: stylish[5] ?? '',
        message: (stylish[4] ?? '').trim(),
      });
      continue;
    }
    const unix = UNIX_PROBLEM.exec(line);
    if (unix && !/^\s/.test(line)) {
      errors.push({
        file: unix[1] ?? '',
        line: Number(unix[2]),
        column: Number(unix[3]),
        severity: unix[5] === 'Warning' ? 'warning' : 'error',
        rule: unix[6] ?? '',
        message: (unix[4] ?? '').trim(),
      });
      continue;
    }
    // stylish file headers are unindented lines that are not the `✖ N problems` summary.
    if (!/^\s/.test(line) && !/^[✖]|^\d+ problems?/.test(line.trim())) file = line.trim();
  }
  return errors;
}

/** Distinct files with lint problems, in first-seen order. */
export function lintFiles(output: string): string[] {
  return [...new Set(parseLintErrors(output).map((e) => e.file))];
}
