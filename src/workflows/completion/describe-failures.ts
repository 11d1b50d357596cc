/**
 * What failed, in one line for a run's reason and the retry prompt: each failed
 * condition's summary, then the items a user looks for first (failing tests, dirty
 * files, weakened tests) from its list parameters. PURE.
 *
 * An item is shown as a person reads it: a named one by its name, a finding by where and
 * what (`isnil_test.go:6 skips a test`), never as JSON; a finding the summary already says
 * is not said twice.
 */
import type { ConditionResult } from '../../contracts/activities.js';
import { isJsonObject, type JsonValue } from '../../contracts/json.js';

/** How many items of one list parameter the line shows. */
const ITEMS_SHOWN = 10;

/** The baseline's lists, by what they mean; any other key is said as words (`untrackedFiles` → `untracked files`). */
const LIST_LABELS: Readonly<Record<string, string>> = {
  preExisting: 'failing on the base too',
  regressions: 'not failing on the base',
  unclassified: 'not classified as unrelated',
  // Said of a failed check (the tests-only rules): whether they were fixed is what is in doubt,
  // and a runner that counts packages cannot tell a skipped test from a passing one.
  fixed: 'no longer failing',
};

function listLabel(key: string): string {
  return LIST_LABELS[key] ?? key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function isFinding(value: JsonValue): boolean {
  return isJsonObject(value) && typeof value['finding'] === 'string' && typeof value['name'] !== 'string';
}

function itemText(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (isJsonObject(value)) {
    if (typeof value['name'] === 'string') return value['name'];
    const finding = value['finding'];
    if (typeof finding === 'string') {
      const where =
        typeof value['file'] === 'string' ? `${value['file']}:${String(value['line'] ?? '')}`.replace(/:$/, '') : '';
      return where === '' ? finding : `${where} ${finding}`;
    }
  }
  return JSON.stringify(value);
}

export function describeFailures(failed: readonly ConditionResult[]): string {
  return failed
    .map((r) => {
      const summary = r.summary.trim();
      const items = Object.entries(r.params).flatMap(([key, value]) => {
        if (!Array.isArray(value) || value.length === 0) return [];
        // A finding the summary already tells (its first few are there) is not told again.
        const texts = value
          .slice(0, ITEMS_SHOWN)
          .filter((item) => !(isFinding(item) && summary.includes(itemText(item))))
          .map(itemText);
        return texts.length > 0 ? [`${listLabel(key)}: ${texts.join(', ')}`] : [];
      });
      return `${r.validator}: ${summary}${items.length > 0 ? ` (${items.join('; ')})` : ''}`;
    })
    .join('; ');
}

/**
 * The run's reason when a check cannot pass by retrying: that check first, then every other
 * failed check, so that a user fixing the first does not meet the second on the next run.
 */
export function unrecoverableReason(failed: readonly ConditionResult[], unrecoverable: ConditionResult): string {
  const others = failed.filter((r) => r !== unrecoverable);
  const also = others.length > 0 ? `; also failed: ${describeFailures(others)}` : '';
  // The summary's own closing period would stand before the semicolon.
  const summary = also === '' ? unrecoverable.summary : unrecoverable.summary.replace(/\.\s*$/, '');
  return `validator "${unrecoverable.validator}" cannot succeed by retrying: ${summary}${also}`;
}
