/**
 * The patch ledger: every id the workflows pass to `patched()` or `deprecatePatch()`, one
 * closed set. A patch keeps a changed command sequence replayable for runs recorded before
 * the change; its id lands in history as a marker, so it never changes once shipped.
 *
 * Call sites write `patched(PATCHES.<key>.id)`, or `deprecatePatch(…)` once the old branch is
 * gone; test/workflows/patch-ledger.test.ts fails on an id not written that way, on an id
 * missing here, on an entry no code uses, and on a deprecation some history still needs.
 * Per entry: `added` (the date of the first `git log -S'<id>'`), `reason` (what the new path
 * does), histories in test/fixtures/histories: `with` (recorded with the marker, proving the
 * new path) and `without` (every one that reaches the call without the marker, so replays
 * the old branch; empty: no history needs it), and when it `retires`. CONTRIBUTING.md says
 * how to add, record and retire one.
 */

/**
 * When the old branch goes. Ids from before the first release go at it (0.1.0 is unreleased:
 * no user's run carries one); later ones are deprecated a release after the one that ships
 * them and removed a release after that (CONTRIBUTING.md).
 */
export type Retirement = 'at first release' | `deprecate in ${string}, remove in ${string}`;

export interface PatchEntry {
  /** The marker's id in history: kebab-case, never changed or reused once recorded. */
  readonly id: string;
  readonly added: `${number}-${number}-${number}`;
  /** One sentence: what runs do behind the patch that runs recorded before it did not. */
  readonly reason: string;
  readonly histories: { readonly with: readonly string[]; readonly without: readonly string[] };
  readonly retires: Retirement;
}

/** Empty while no recorded history needs an old branch (CONTRIBUTING.md, "Versioning policy"). */
export const PATCHES = {} as const satisfies Record<string, PatchEntry>;

export type PatchKey = keyof typeof PATCHES;
export type PatchId = (typeof PATCHES)[PatchKey]['id'];
