/**
 * Upstream `failurePatterns.<id>.semanticMatch` (retry-handler.ts): when a failed
 * condition names no declared pattern, the pattern whose keywords best match the
 * failure's text is used for the retry prompt. A keyword is a case-insensitive
 * substring, or `/regex/` (flags `i` always). The score is the number of keywords that
 * match; the highest score wins, ties go to the first declared; no match, no pattern.
 * Pure: the loader checks the regexes, the retry-prompt activity scores.
 */

/** `/body/` or `/body/flags` → a RegExp source and flags; undefined for a plain keyword. */
export function keywordRegex(keyword: string): { readonly source: string; readonly flags: string } | undefined {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(keyword);
  if (m === null) return undefined;
  const flags = m[2]!.includes('i') ? m[2]! : `${m[2]!}i`;
  return { source: m[1]!, flags: flags.replace(/[gy]/g, '') };
}

/** An error message when `keyword` is a `/regex/` that does not compile. */
export function keywordProblem(keyword: string): string | undefined {
  const re = keywordRegex(keyword);
  if (re === undefined) return keyword.trim() === '' ? 'an empty keyword matches everything' : undefined;
  try {
    new RegExp(re.source, re.flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function keywordScore(keywords: readonly string[], text: string): number {
  const lower = text.toLowerCase();
  let score = 0;
  for (const keyword of keywords) {
    const re = keywordRegex(keyword);
    if (re === undefined) {
      if (keyword !== '' && lower.includes(keyword.toLowerCase())) score++;
      continue;
    }
    try {
      if (new RegExp(re.source, re.flags).test(text)) score++;
    } catch {
      // Rejected at load (keywordProblem); an old definition's bad regex just does not match.
    }
  }
  return score;
}

/** The id of the best-scoring pattern, or undefined. */
export function bestSemanticPattern(
  patterns: Readonly<Record<string, { readonly semanticMatch?: readonly string[] }>>,
  text: string,
): string | undefined {
  let best: { id: string; score: number } | undefined;
  for (const [id, pattern] of Object.entries(patterns)) {
    const keywords = pattern.semanticMatch ?? [];
    if (keywords.length === 0) continue;
    const score = keywordScore(keywords, text);
    if (score > 0 && (best === undefined || score > best.score)) best = { id, score };
  }
  return best?.id;
}
