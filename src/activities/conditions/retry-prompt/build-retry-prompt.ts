/**
 * Builds the prompt the model gets after its closing failed validation. Resolution
 * order (C3L, relative to the prompts root):
 *   <c1>/<c2>/<c3>/f_<edition>_<adaptation>.md   the primary failure's pattern, adapted
 *   <c1>/<c2>/<c3>/f_<edition>.md                the pattern's edition
 *   <c1>/<c2>/<c3>/f_failed.md                   any failure
 *   built-in text                                nothing shipped
 * The primary failure is the first failed condition with a declared pattern (else the
 * first failed one); `failures` lists all of them so one retry can fix everything.
 * When no failure names a declared pattern, the pattern whose `semanticMatch` keywords
 * best match the primary failure's text is used (upstream retry-handler).
 */
import { join } from 'node:path';
import type { BuildRetryPromptInput, ConditionResult, ResolvedPrompt } from '../../../contracts/activities.js';
import type { FailurePatternDefinition } from '../../../contracts/definition.js';
import { BUILTIN_RETRY_SOURCE, builtinRetryText } from './builtin-retry-text.js';
import { stripFrontMatter } from '../../../definition/c3l/front-matter.js';
import { retryParams } from './retry-params.js';
import { bestSemanticPattern } from '../../../contracts/semantic-match.js';
import { renderRetryTemplate } from '../../../definition/retry-prompt/retry-template.js';

export interface BuildRetryPromptDeps {
  /** File text, or undefined when the file does not exist. */
  readonly readFile: (path: string) => Promise<string | undefined>;
}

export async function buildRetryPrompt(
  deps: BuildRetryPromptDeps,
  input: BuildRetryPromptInput,
): Promise<ResolvedPrompt> {
  const failed = input.failed.filter((r) => !r.passed);
  const primary =
    failed.find((r) => r.failurePattern !== undefined && input.failurePatterns[r.failurePattern] !== undefined) ??
    failed[0];
  const declared = primary?.failurePattern === undefined ? undefined : input.failurePatterns[primary.failurePattern];
  const pattern = declared ?? semanticPattern(input, primary);
  const params = retryParams(primary, failed);

  for (const source of retryPromptCandidates(input, pattern)) {
    const text = await deps.readFile(join(input.promptsDir, source));
    if (text !== undefined) return { text: renderRetryTemplate(stripFrontMatter(text), params).trim(), source };
  }
  return { text: builtinRetryText(failed.length > 0 ? failed : placeholder()), source: BUILTIN_RETRY_SOURCE };
}

/** C3L paths (relative to the prompts root), most specific first, without duplicates. */
export function retryPromptCandidates(
  input: Pick<BuildRetryPromptInput, 'c1' | 'completionStep'>,
  pattern: FailurePatternDefinition | undefined,
): string[] {
  const dir = [input.c1, input.completionStep.c2, input.completionStep.c3].join('/');
  const names = [
    pattern?.adaptation ? `f_${pattern.edition}_${pattern.adaptation}.md` : undefined,
    pattern ? `f_${pattern.edition}.md` : undefined,
    'f_failed.md',
  ].filter((n): n is string => n !== undefined);
  return [...new Set(names)].map((n) => `${dir}/${n}`);
}

function semanticPattern(
  input: Pick<BuildRetryPromptInput, 'failurePatterns'>,
  failure: ConditionResult | undefined,
): FailurePatternDefinition | undefined {
  if (failure === undefined) return undefined;
  const text = [
    failure.summary,
    ...Object.values(failure.params).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
  ].join('\n');
  const id = bestSemanticPattern(input.failurePatterns, text);
  return id === undefined ? undefined : input.failurePatterns[id];
}

/** Called without failures (a caller bug): still tell the model something true. */
function placeholder(): ConditionResult[] {
  return [
    { validator: 'completion', passed: false, summary: 'validation did not pass', params: {}, unrecoverable: false },
  ];
}
