/**
 * TypeScript compiler errors from `tsc` output. PURE: no I/O, bundle-safe.
 *
 * Plain: `src/a.ts(12,5): error TS2322: msg`; pretty: `src/a.ts:12:5 - error TS2322: msg`
 * (usually coloured, so ANSI escapes are stripped first). Global errors without a file
 * (`error TS5083: Cannot read file ...`) are kept with an empty file and line 0.
 */
import { stripAnsi } from './strip-ansi.js';

export interface TypeError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: string;
  readonly message: string;
}

const PLAIN = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - error (TS\d+): (.*)$/;
const GLOBAL = /^error (TS\d+): (.*)$/;

export function parseTypeErrors(output: string): TypeError[] {
  const errors: TypeError[] = [];
  for (const raw of stripAnsi(output).split(/\r?\n/)) {
    const line = raw.trimEnd();
    const m = PLAIN.exec(line) ?? PRETTY.exec(line);
    if (m) {
      errors.push({
        file: (m[1] ?? '').trim(),
        line: Number(m[2]),
        column: Number(m[3]),
        code: m[4] ?? '',
        message: (m[5] ?? '').trim(),
      });
      continue;
    }
    const g = GLOBAL.exec(line.trim());
    if (g) errors.push({ file: '', line: 0, column: 0, code: g[1] ?? '', message: (g[2] ?? '').trim() });
  }
  return errors;
}

/** Distinct files named by the errors, in first-seen order (the `extractFiles` extractor). */
export function typeErrorFiles(output: string): string[] {
  return [
    ...new Set(
      parseTypeErrors(output)
        .map((e) => e.file)
        .filter((f) => f !== ''),
    ),
  ];
}
