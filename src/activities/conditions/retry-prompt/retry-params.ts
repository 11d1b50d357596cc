/**
 * The variables a retry prompt template sees. PURE. The primary failure's own params
 * (extracted by its validator) come first, then the fixed names every template may
 * rely on (RETRY_FIXED_VARIABLES): validator, summary, error, exitCode, command,
 * pattern, failures, details.
 */
import type { ConditionResult } from '../../../contracts/activities.js';
import type { JsonValue } from '../../../contracts/json.js';

export function retryParams(
  primary: ConditionResult | undefined,
  failed: readonly ConditionResult[],
): Record<string, JsonValue> {
  const failures: JsonValue[] = failed.map((r) => ({
    validator: r.validator,
    summary: r.summary,
    ...(r.failurePattern ? { pattern: r.failurePattern } : {}),
    ...(r.exitCode === undefined ? {} : { exitCode: r.exitCode }),
  }));
  return {
    ...(primary?.params ?? {}),
    validator: primary?.validator ?? '',
    summary: primary?.summary ?? '',
    // Upstream's generic f_failed.md prints {{error}}.
    error: primary?.summary ?? '',
    exitCode: primary?.exitCode ?? null,
    command: primary?.command ?? '',
    pattern: primary?.failurePattern ?? '',
    failures,
    // Upstream's f_failed.md lists {{#each details}}: one line per failed condition.
    details: failed.map((r) => `${r.validator}: ${r.summary.trim()}`),
  };
}
