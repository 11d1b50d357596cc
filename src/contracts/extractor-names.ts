/**
 * The names a validator's `extractParams` may use (upstream names and their aliases).
 * One closed set for both floors: the loader rejects any other name at `validate` (a
 * typo would otherwise become `null` at run time; upstream's declared-but-unimplemented
 * names below are a warning), and the activities' extractor table
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
  GenerateDiff: 'generateDiff',
  Diff: 'diff',
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

/**
 * Names upstream's ExtractorType declares but neither upstream nor this project
 * implements (its shipped reviewer, iterator and facilitator use them): upstream gives
 * such a parameter `null`, and so does a run here. The loader accepts them with a
 * warning saying so; any other unknown name is an error.
 */
export const UpstreamUnimplementedExtractor = {
  ParseBranchName: 'parseBranchName',
  ParseRemoteStatus: 'parseRemoteStatus',
  ParseMergeStatus: 'parseMergeStatus',
} as const;
export type UpstreamUnimplementedExtractor =
  (typeof UpstreamUnimplementedExtractor)[keyof typeof UpstreamUnimplementedExtractor];

export function isUpstreamUnimplementedExtractor(name: string): name is UpstreamUnimplementedExtractor {
  return (Object.values(UpstreamUnimplementedExtractor) as readonly string[]).includes(name);
}
