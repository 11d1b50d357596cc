/**
 * Patch ids are one closed set: the ledger (src/workflows/versioning/patch-ledger.ts).
 * Every `patched(...)` / `deprecatePatch(...)` call in src/ must name its id as
 * `PATCHES.<key>.id` with a key the ledger has (a literal string or a constant of its own
 * would be an id the ledger does not know), and every ledger entry must be used somewhere.
 * The ledger's own facts are checked too: key and id agree, the histories it names exist,
 * and carry the marker (`with`) or lack it (`without`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PATCHES, type PatchEntry } from '../../src/workflows/versioning/patch-ledger.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HISTORIES = join(ROOT, 'test', 'fixtures', 'histories');

interface Source {
  readonly path: string;
  readonly text: string;
}

function sourcesUnder(dir: string): Source[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourcesUnder(path);
      return name.endsWith('.ts') ? [{ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }] : [];
    });
}

/** Comments blanked (newlines kept, so line numbers hold): prose may quote `patched('id')`. */
function withoutComments(text: string): string {
  const blank = (c: string): string => c.replace(/[^\n]/g, ' ');
  return text
    .replace(/\/\*[\s\S]*?\*\//g, blank)
    .replace(/(^|[^:'"`])\/\/[^\n]*/g, (m, pre: string) => pre + blank(m.slice(pre.length)));
}

const CALL = /\b(patched|deprecatePatch)\(([^)]*)\)/g;
const LEDGER_ARG = /^PATCHES\.(\w+)\.id$/;
const ALIAS = /\b(patched|deprecatePatch)\s+as\s+\w+/g;

export interface LedgerScan {
  readonly violations: string[];
  readonly usedKeys: Set<string>;
  /** Keys passed to deprecatePatch: their old branch is gone. */
  readonly deprecatedKeys: Set<string>;
}

/** What is wrong with the patch calls in `sources`, against the ledger's keys. PURE. */
export function scanPatchCalls(sources: readonly Source[], keys: readonly string[]): LedgerScan {
  const violations: string[] = [];
  const usedKeys = new Set<string>();
  const deprecatedKeys = new Set<string>();
  for (const { path, text } of sources) {
    const code = withoutComments(text);
    const lineOf = (index: number): number => code.slice(0, index).split('\n').length;
    for (const m of code.matchAll(ALIAS)) {
      violations.push(`${path}:${lineOf(m.index)}: ${m[0]}: call ${m[1]} by its name, so this test sees it`);
    }
    for (const m of code.matchAll(CALL)) {
      const arg = m[2]!.trim();
      const where = `${path}:${lineOf(m.index)}: ${m[1]}(${arg})`;
      const key = LEDGER_ARG.exec(arg)?.[1];
      if (key === undefined) violations.push(`${where}: name the id as PATCHES.<key>.id from the ledger`);
      else if (!keys.includes(key)) violations.push(`${where}: '${key}' is not in the ledger`);
      else usedKeys.add(key);
      if (key !== undefined && m[1] === 'deprecatePatch') deprecatedKeys.add(key);
    }
  }
  return { violations, usedKeys, deprecatedKeys };
}

/** The patch ids a recorded history carries as markers. */
function markersOf(file: string): Set<string> {
  const history = JSON.parse(readFileSync(join(HISTORIES, file), 'utf8')) as {
    events: { markerRecordedEventAttributes?: { markerName?: string; details?: Record<string, unknown> } }[];
  };
  const ids = new Set<string>();
  for (const { markerRecordedEventAttributes: marker } of history.events) {
    if (marker?.markerName !== 'core_patch') continue;
    const data = (marker.details?.['patch-data'] as { payloads: { data: string }[] }).payloads[0]!.data;
    ids.add((JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { id: string }).id);
  }
  return ids;
}

type Ledger = Readonly<Record<string, PatchEntry>>;
const LEDGER: Ledger = PATCHES;
const KEYS = Object.keys(LEDGER);

/** A deprecated patch has no old branch left, so no history may still need one (`without`). PURE. */
export function deprecatedTooSoon(deprecated: ReadonlySet<string>, ledger: Ledger): string[] {
  return [...deprecated]
    .filter((key) => (ledger[key]?.histories.without.length ?? 0) > 0)
    .map((key) => `${key}: deprecated while histories need its old branch`);
}

test('every patched()/deprecatePatch() call in src/ names a ledger id, and every ledger id is used', () => {
  const { violations, usedKeys, deprecatedKeys } = scanPatchCalls(sourcesUnder(join(ROOT, 'src')), KEYS);
  assert.deepEqual(violations, []);
  assert.deepEqual(deprecatedTooSoon(deprecatedKeys, LEDGER), []);
  const unused = KEYS.filter((k) => !usedKeys.has(k));
  assert.deepEqual(unused, [], 'ledger entries no code uses: remove them (and their old branch is gone)');
});

/** A ledger of two entries for the scan's own test: the real one may be empty. */
const PLANTED_LEDGER: Ledger = {
  askAndWait: {
    id: 'ask-and-wait',
    added: '2026-11-27',
    reason: 'The ask tool ends a step and the run waits for an answer.',
    histories: { with: ['ask-and-wait.json'], without: [] },
    retires: 'at first release',
  },
  budgetPauseNotice: {
    id: 'budget-pause-notice',
    added: '2026-11-27',
    reason: 'A budget pause is posted once on the issue.',
    histories: { with: ['budget-pause.json'], without: ['budget-pause-old.json'] },
    retires: 'at first release',
  },
};

test('the scan refuses an unknown id, a literal, a constant, an alias and an early deprecation; comments are prose', () => {
  const planted: Source = {
    path: 'src/workflows/planted.ts',
    text: [
      "import { patched as isPatched } from '@temporalio/workflow';",
      'if (patched(PATCHES.noSuchPatch.id)) go();',
      "if (patched('ask-and-wait')) go();",
      'deprecatePatch(ASK_PATCH);',
      "// patched('quoted-in-a-comment') is prose",
      '/** patched(ANY) in a doc comment */',
      'if (patched(PATCHES.askAndWait.id)) go();',
      'deprecatePatch(PATCHES.budgetPauseNotice.id);',
    ].join('\n'),
  };
  const { violations, usedKeys, deprecatedKeys } = scanPatchCalls([planted], Object.keys(PLANTED_LEDGER));
  assert.equal(violations.length, 4, violations.join('\n'));
  assert.match(violations[0]!, /:1: patched as isPatched/);
  assert.match(violations[1]!, /:2: .*'noSuchPatch' is not in the ledger/);
  assert.match(violations[2]!, /:3: patched\('ask-and-wait'\): name the id as PATCHES/);
  assert.match(violations[3]!, /:4: deprecatePatch\(ASK_PATCH\)/);
  assert.deepEqual([...usedKeys], ['askAndWait', 'budgetPauseNotice']);
  // budget-pause-notice's old branch still replays a history: not deprecated yet.
  assert.deepEqual(deprecatedTooSoon(deprecatedKeys, PLANTED_LEDGER), [
    'budgetPauseNotice: deprecated while histories need its old branch',
  ]);
  // With the ledger empty, any call is refused.
  assert.equal(scanPatchCalls([planted], []).violations.length, 6);
});

test('ledger entries: key is the id in camelCase, ids unique, dates well formed, one-sentence reasons', () => {
  const camel = (id: string): string => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const ids = Object.values(LEDGER).map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const [key, entry] of Object.entries(LEDGER)) {
    assert.equal(key, camel(entry.id), `${entry.id}: key`);
    assert.match(entry.added, /^\d{4}-\d{2}-\d{2}$/, `${entry.id}: added`);
    assert.match(entry.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${entry.id}: kebab-case`);
    assert.ok(entry.reason.endsWith('.') && entry.reason.length <= 140, `${entry.id}: reason is one sentence`);
  }
});

test("ledger histories exist and carry the patch's marker (with) or lack it (without)", () => {
  const wrong: string[] = [];
  for (const { id, histories } of Object.values(LEDGER)) {
    for (const [side, files] of Object.entries(histories) as [string, readonly string[]][]) {
      for (const file of files) {
        if (!existsSync(join(HISTORIES, file))) wrong.push(`${id}: ${side} ${file} does not exist`);
        else if (markersOf(file).has(id) !== (side === 'with')) wrong.push(`${id}: ${file} is not ${side} the marker`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});
