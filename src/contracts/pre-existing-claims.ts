/**
 * Tests red on the base are accounted for, never silently excused (issue 37). A test
 * failing on the base commit and still failing at the closing that does not block by a
 * reason of its own (classify-failures.ts) must be classified by the closure, in its
 * structured output, as unrelated to the issue, with a reason:
 *
 *   "pre_existing_failures": [{ "test": "<name>", "unrelated": true, "reason": "..." }]
 *
 * A closing that leaves one unclassified is a failed condition (pattern
 * `pre-existing-unclassified`) whose retry prompt names each such test. The claims and
 * the tests the branch fixed are carried in the tests condition's params (`preExisting`
 * entries' `unrelated`, `fixed`), and from there reach the run's summary, the PR body and
 * the closing comment (baselineAccountOf), so a reviewer sees what the agent claimed.
 * PURE.
 */
import type { ConditionResult } from './validation.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { nameList } from './name-list.js';

/** The closure output's field (snake_case, as the closure schema's other fields). */
export const PRE_EXISTING_FIELD = 'pre_existing_failures';

/** The failure pattern (and retry prompt adaptation) of a closing that left one unclassified. */
export const UNCLASSIFIED_PATTERN = 'pre-existing-unclassified';

export interface PreExistingClaim {
  /** The test as the retry prompt or the runner named it (any of its names). */
  readonly test: string;
  /** Why it is unrelated to the issue and this change. */
  readonly reason: string;
}

/**
 * The claims in a closure's output: entries with a test, `unrelated: true` and a reason.
 * Anything else is no claim (the agent's schema checks the shape where it declares the
 * field; this reader never trusts it).
 */
export function preExistingClaimsOf(output: JsonObject): PreExistingClaim[] {
  const value = output[PRE_EXISTING_FIELD];
  if (!Array.isArray(value)) return [];
  const claims: PreExistingClaim[] = [];
  for (const item of value) {
    if (!isJsonObject(item) || item['unrelated'] !== true) continue;
    const test = item['test'];
    const reason = item['reason'];
    if (typeof test !== 'string' || test.trim() === '') continue;
    if (typeof reason !== 'string' || reason.trim() === '') continue;
    claims.push({ test: test.trim(), reason: reason.trim() });
  }
  return claims;
}

/** What a closing's evidence says about the base's failures, for the texts a reviewer reads. */
export interface BaselineAccount {
  readonly baseCommit?: string;
  /** Failing on the base and still failing, classified unrelated by the closure. */
  readonly unrelated: readonly { readonly name: string; readonly reason: string }[];
  /** Failing on the base, passing now. */
  readonly fixed: readonly string[];
}

/** The account over every condition of a closing's evidence (usually the one tests condition). */
export function baselineAccountOf(evidence: readonly ConditionResult[]): BaselineAccount {
  let baseCommit: string | undefined;
  const unrelated: { name: string; reason: string }[] = [];
  const fixed: string[] = [];
  for (const result of evidence) {
    const base = result.params['baseCommit'];
    if (typeof base === 'string') baseCommit ??= base;
    for (const item of items(result.params['preExisting'])) {
      const reason = item['unrelated'];
      if (typeof item['name'] === 'string' && typeof reason === 'string')
        unrelated.push({ name: item['name'], reason });
    }
    for (const item of items(result.params['fixed']))
      if (typeof item['name'] === 'string' && !fixed.includes(item['name'])) fixed.push(item['name']);
  }
  return { ...(baseCommit === undefined ? {} : { baseCommit }), unrelated, fixed };
}

/** One line for a run's summary; empty when there is nothing to account for. */
export function baselineAccountLine(account: BaselineAccount, maxReason = 120): string {
  const parts: string[] = [];
  if (account.unrelated.length > 0) {
    const clip = (s: string): string => (s.length > maxReason ? `${s.slice(0, maxReason - 1)}…` : s);
    const listed = account.unrelated.map((u) => `${u.name} (${clip(u.reason.replace(/\s+/g, ' '))})`).join(', ');
    parts.push(`failing on base too, classified unrelated by the closure: ${listed}`);
  }
  if (account.fixed.length > 0) parts.push(`fixed since base: ${nameList(account.fixed)}`);
  return parts.join('; ');
}

function items(value: JsonValue | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}
