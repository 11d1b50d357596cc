/**
 * The named parameter extractors a validator's `extractParams` may use, with the
 * upstream aliases. PURE. The names are one closed set in contracts/extractor-names.ts:
 * the loader rejects any other name at load time (rule `extractor-known`) instead of
 * producing nulls at run time (upstream bug §10.12), and this table must implement
 * every name of that set (its type says so).
 */
import { isExtractorName, type ExtractorName } from '../../contracts/extractor-names.js';
import type { JsonValue } from '../../contracts/json.js';
import { parseChangedFiles, parseStagedFiles, parseUnstagedFiles, parseUntrackedFiles } from './parse-git-status.js';
import { parseFormatOutput } from './parse-format-output.js';
import { lintFiles, parseLintErrors } from './parse-lint-errors.js';
import { capExcerpts } from '../../definition/ecosystems/test-runners/failed-test.js';
import { parseTestFailures, type TestReports } from './test-reports/parse-test-failures.js';
import { parseTypeErrors, typeErrorFiles } from './parse-type-errors.js';
import { stripAnsi } from './strip-ansi.js';

export interface ExtractorContext {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  /** Reports the command's runner wrote (pytest's JUnit XML), read by the test extractors. */
  readonly reports?: TestReports;
}

type Extractor = (ctx: ExtractorContext) => JsonValue;

/** stdout then stderr: tools disagree on where they print diagnostics. */
const both = (ctx: ExtractorContext): string => `${ctx.stdout}\n${ctx.stderr}`;
const json = <T>(value: T): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;
const capped = (text: string): string => text.slice(0, 4000);

const EXTRACTORS = {
  parseChangedFiles: (ctx) => parseChangedFiles(ctx.stdout),
  parseUntrackedFiles: (ctx) => parseUntrackedFiles(ctx.stdout),
  parseStagedFiles: (ctx) => parseStagedFiles(ctx.stdout),
  parseUnstagedFiles: (ctx) => parseUnstagedFiles(ctx.stdout),
  parseTestOutput: (ctx) => json(capExcerpts(parseTestFailures(both(ctx), ctx.reports))),
  failedTests: (ctx) => json(capExcerpts(parseTestFailures(both(ctx), ctx.reports))),
  parseTypeErrors: (ctx) => json(parseTypeErrors(both(ctx))),
  errors: (ctx) => json(parseTypeErrors(both(ctx))),
  extractFiles: (ctx) => [...new Set([...typeErrorFiles(both(ctx)), ...lintFiles(both(ctx))])],
  files: (ctx) => [...new Set([...typeErrorFiles(both(ctx)), ...lintFiles(both(ctx))])],
  parseLintErrors: (ctx) => json(parseLintErrors(both(ctx))),
  lintErrors: (ctx) => json(parseLintErrors(both(ctx))),
  lintFiles: (ctx) => lintFiles(both(ctx)),
  parseFormatOutput: (ctx) => parseFormatOutput(both(ctx)),
  formatFiles: (ctx) => parseFormatOutput(both(ctx)),
  // The format checker's own report: deno fmt --check, rustfmt --check, black --diff print the diff.
  generateDiff: (ctx) => capped(stripAnsi(both(ctx)).trim()),
  diff: (ctx) => capped(stripAnsi(both(ctx)).trim()),
  errorOutput: (ctx) => errorOutput(ctx),
  stdout: (ctx) => stripAnsi(ctx.stdout).trim(),
  stderr: (ctx) => stripAnsi(ctx.stderr).trim(),
  exitCode: (ctx) => ctx.exitCode,
} as const satisfies Record<ExtractorName, Extractor>;

export { EXTRACTOR_NAMES, isExtractorName, type ExtractorName } from '../../contracts/extractor-names.js';

/** The extractors that read test failures: a validator using one runs with test reports on. */
export const TEST_EXTRACTORS: readonly ExtractorName[] = ['parseTestOutput', 'failedTests'];

/** Runs the named extractor; undefined for an unknown name (the caller reports it). */
export function extract(name: string, ctx: ExtractorContext): JsonValue | undefined {
  return isExtractorName(name) ? EXTRACTORS[name](ctx) : undefined;
}

/** A validator's `extractParams` (param name → extractor name), each run on the command's output. */
export function extractParams(
  extractors: Readonly<Record<string, string>>,
  ctx: ExtractorContext,
): Record<string, JsonValue> {
  const params: Record<string, JsonValue> = {};
  // Unknown extractors are rejected by the loader; null keeps a stale definition from crashing a run.
  for (const [param, extractor] of Object.entries(extractors)) params[param] = extract(extractor, ctx) ?? null;
  return params;
}

/** Error text from the first line that looks like an error, else all of stderr (or stdout). */
function errorOutput(ctx: ExtractorContext): string {
  const text = stripAnsi(ctx.stderr.trim() !== '' ? ctx.stderr : ctx.stdout);
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /error|fail|✖|×/i.test(l));
  return capped((start === -1 ? lines : lines.slice(start)).join('\n').trim());
}
