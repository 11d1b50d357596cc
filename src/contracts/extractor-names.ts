/**
 * The names a validator's `extractParams` may use (upstream names and their aliases).
 * One closed set for both floors: the loader rejects any other name at `validate` (a
 * typo would otherwise become `null` at run time), and the activities' extractor table
 * (activities/conditions/extractors.ts) must implement exactly these names: it is typed
 * `Record<ExtractorName, …>`, so the compiler names what either side misses.
 */

export const ExtractorName = {
  ParseChangedFiles: 'parseChangedFiles',
  ParseUntrackedFiles: 'parseUntrackedFiles',
  ParseStagedFiles: 'parseStagedFiles',
  ParseUnstagedFiles: 'parseUnstagedFiles',
  ParseTestOutput: 'parseTestOutput',
  FailedTests: 'failedTests',
  ParseTypeErrors: 'parseTypeErrors',
  Errors: 'errors',
  ExtractFiles: 'extractFiles',
  Files: 'files',
  ParseLintErrors: 'parseLintErrors',
  LintErrors: 'lintErrors',
  LintFiles: 'lintFiles',
  ParseFormatOutput: 'parseFormatOutput',
  FormatFiles: 'formatFiles',
  ErrorOutput: 'errorOutput',
  Stdout: 'stdout',
  Stderr: 'stderr',
  ExitCode: 'exitCode',
} as const;
export type ExtractorName = (typeof ExtractorName)[keyof typeof ExtractorName];

export const EXTRACTOR_NAMES: readonly ExtractorName[] = Object.values(ExtractorName);

export function isExtractorName(name: string): name is ExtractorName {
  return (EXTRACTOR_NAMES as readonly string[]).includes(name);
}
