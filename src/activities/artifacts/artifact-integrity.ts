/**
 * Content addressing of artifacts: a file's name carries the sha256 of its bytes
 * (`<label>.<sha256>.<ext>`), the history references it, and every reader checks it.
 * The store writes names and verifies reads through a reference; `artifacts --show`
 * verifies a file found on disk by the hash in its name. One hash function, one name
 * format, one check, so a writer and a reader cannot disagree on any of them.
 */
import { createHash } from 'node:crypto';

export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** `<label>.<sha256>.<ext>`: the name the store gives an artifact (label already made safe). */
export function artifactFileName(safeLabel: string, sha256: string, ext: string): string {
  return `${safeLabel}.${sha256}.${ext}`;
}

const HASH_IN_NAME = /\.([0-9a-f]{64})\.[a-z]+$/;

/** The sha256 an artifact's file name carries; undefined for a name without one (records, the plan). */
export function sha256InName(fileName: string): string | undefined {
  return HASH_IN_NAME.exec(fileName)?.[1];
}

export const ArtifactCheck = {
  /** The content hashes to the sha256 in the name. */
  Verified: 'verified',
  /** The name carries no sha256 (a record replaced in place): nothing to check against. */
  Unaddressed: 'unaddressed',
  /** The content was changed after it was written (or the name was). */
  Mismatch: 'mismatch',
} as const;
export type ArtifactCheck = (typeof ArtifactCheck)[keyof typeof ArtifactCheck];

export type ArtifactCheckResult =
  | { readonly check: typeof ArtifactCheck.Verified | typeof ArtifactCheck.Unaddressed }
  | { readonly check: typeof ArtifactCheck.Mismatch; readonly expected: string; readonly actual: string };

/** Checks an artifact's bytes against the sha256 its file name carries. */
export function checkArtifactBytes(fileName: string, bytes: Uint8Array): ArtifactCheckResult {
  const expected = sha256InName(fileName);
  if (expected === undefined) return { check: ArtifactCheck.Unaddressed };
  const actual = sha256Hex(bytes);
  return actual === expected ? { check: ArtifactCheck.Verified } : { check: ArtifactCheck.Mismatch, expected, actual };
}
