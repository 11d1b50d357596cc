/**
 * Registry failure patterns → definitions (built-ins first, registry entries override),
 * with each `semanticMatch` keyword checked at load: a keyword that is empty or a
 * `/regex/` that does not compile would otherwise only fail when a retry needs it.
 */
import type { FailurePatternDefinition } from '../../contracts/definition.js';
import { keywordProblem } from '../../contracts/semantic-match.js';
import type { RawRegistryFile } from '../load/raw-files.js';
import { pointer, problem, type Problem } from '../problem.js';
import { BUILTIN_FAILURE_PATTERNS } from './builtin-validators.js';

export function normaliseFailurePatterns(
  registry: RawRegistryFile,
  file: string,
  problems: Problem[],
): Record<string, FailurePatternDefinition> {
  const failurePatterns: Record<string, FailurePatternDefinition> = { ...BUILTIN_FAILURE_PATTERNS };
  for (const [id, raw] of Object.entries(registry.failurePatterns ?? {})) {
    failurePatterns[id] = {
      description: raw.description ?? '',
      edition: raw.edition ?? 'failed',
      ...(raw.adaptation === undefined ? {} : { adaptation: raw.adaptation }),
      params: raw.params ?? [],
      ...(raw.semanticMatch === undefined ? {} : { semanticMatch: [...raw.semanticMatch] }),
    };
    for (const [i, keyword] of (raw.semanticMatch ?? []).entries()) {
      const why = keywordProblem(keyword);
      if (why === undefined) continue;
      problems.push(
        problem({
          code: 'SEMANTIC_MATCH_INVALID',
          file,
          pointer: pointer('failurePatterns', id, 'semanticMatch', i),
          rule: 'semantic-match-valid',
          expected: 'a non-empty keyword, or /regex/ that compiles',
          message: `semanticMatch keyword ${JSON.stringify(keyword)} of pattern '${id}' is invalid: ${why}`,
        }),
      );
    }
  }
  return failurePatterns;
}
