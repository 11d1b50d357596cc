/**
 * The last-resort retry prompt, used only when the agent ships no retry prompt file at
 * all (no `f_<edition>[_<adaptation>].md`, no `f_failed.md`). The one place prompt text
 * lives in code: kept minimal, it lists each failure and its parameters (failing tests
 * one per line, with the lines that explain them). PURE.
 */
import type { ConditionResult } from '../../../contracts/activities.js';
import type { JsonValue } from '../../../contracts/json.js';
import { PRE_EXISTING_FIELD } from '../../../contracts/pre-existing-claims.js';

export const BUILTIN_RETRY_SOURCE = '(built-in retry prompt)';

export function builtinRetryText(failed: readonly ConditionResult[]): string {
  const lines = [
    '## Completion conditions not met',
    '',
    'The completion checks failed after you signalled closing:',
    '',
  ];
  for (const result of failed) {
    lines.push(
      `### ${result.validator}${result.failurePattern ? ` (${result.failurePattern})` : ''}`,
      '',
      result.summary,
      '',
    );
    for (const [name, value] of Object.entries(result.params)) {
      const tests = namedItems(value);
      if (tests !== undefined) {
        if (tests.length > 0) lines.push(`- ${name}:`, ...tests);
        continue;
      }
      const text = paramText(value);
      if (text !== '') lines.push(`- ${name}: ${text}`);
    }
    if (Array.isArray(result.params['unclassified']) && result.params['unclassified'].length > 0)
      lines.push(
        '',
        `The \`unclassified\` tests fail on the base commit too. Fix each, or list it in \`${PRE_EXISTING_FIELD}\` of your closing answer as { "test": "<name>", "unrelated": true, "reason": "why it is not this issue" }.`,
      );
    lines.push('');
  }
  lines.push('Fix every item above, commit your work, then signal closing again.');
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

function paramText(value: JsonValue): string {
  if (value === null) return '';
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Failing tests (`{ name, file?, excerpt? }`, as the test extractors give them): one
 * sub-item each, its excerpt indented under it. Undefined for any other value.
 */
function namedItems(value: JsonValue): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item) || typeof item['name'] !== 'string') {
      return undefined;
    }
    const file = typeof item['file'] === 'string' ? ` (${item['file']})` : '';
    out.push(`  - ${item['name']}${file}`);
    if (typeof item['excerpt'] === 'string') out.push(...item['excerpt'].split('\n').map((l) => `    ${l}`));
  }
  return out;
}
