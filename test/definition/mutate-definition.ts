/**
 * Builds an invalid definition from the valid upstream-vocabulary fixture and a few
 * edits, in a temp directory: the bad-input corpus is a table of small mutations of
 * one agent, not dozens of full copies.
 */
import { cpSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES, tempDir } from './temp-dirs.js';

export type JsonPatchOp = { readonly set: string; readonly value: unknown } | { readonly remove: string };

export type DefinitionEdit =
  | { readonly file: string; readonly patch: readonly JsonPatchOp[] }
  | { readonly file: string; readonly json: unknown }
  | { readonly file: string; readonly text: string }
  | { readonly file: string; readonly replace: readonly [string, string] }
  | { readonly file: string; readonly delete: true };

export interface DefinitionMutation {
  readonly name: string;
  readonly expected: {
    readonly code: string;
    readonly file: string;
    readonly pointer: string;
    readonly alsoCodes?: readonly string[];
  };
  readonly edits: readonly DefinitionEdit[];
}

const BASE = 'valid/upstream-vocabulary';

/** A temp directory holding the base agent with the mutation's edits applied. */
export function materialise(mutation: DefinitionMutation): string {
  const dir = tempDir(`invalid-${mutation.name}-`);
  cpSync(path.join(FIXTURES, BASE), dir, { recursive: true });
  for (const edit of mutation.edits) applyEdit(dir, edit);
  return dir;
}

/** A temp copy of any agent directory with `edits` applied. */
export async function mutatedCopy(baseDir: string, edits: readonly DefinitionEdit[]): Promise<string> {
  const dir = tempDir(`mutated-${path.basename(baseDir)}-`);
  cpSync(baseDir, dir, { recursive: true });
  for (const edit of edits) applyEdit(dir, edit);
  return dir;
}

function applyEdit(dir: string, edit: DefinitionEdit): void {
  const file = path.join(dir, edit.file);
  mkdirSync(path.dirname(file), { recursive: true });
  if ('delete' in edit) rmSync(file);
  else if ('text' in edit) writeFileSync(file, edit.text);
  else if ('json' in edit) writeFileSync(file, `${JSON.stringify(edit.json, null, 2)}\n`);
  else if ('replace' in edit) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes(edit.replace[0])) throw new Error(`${edit.file} has no ${JSON.stringify(edit.replace[0])}`);
    writeFileSync(file, text.replace(edit.replace[0], edit.replace[1]));
  } else {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, `${JSON.stringify(edit.patch.reduce(applyOp, value), null, 2)}\n`);
  }
}

/** RFC 6901 pointers; the parent of every target exists in the base agent. */
function applyOp(root: unknown, op: JsonPatchOp): unknown {
  const pointer = 'set' in op ? op.set : op.remove;
  if (pointer === '') return 'set' in op ? op.value : undefined;
  const keys = pointer
    .slice(1)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop() as string;
  let parent = root as Record<string, unknown>;
  for (const key of keys) parent = parent[key] as Record<string, unknown>;
  if (parent === undefined || parent === null) throw new Error(`no parent for ${pointer}`);
  if ('set' in op) parent[last] = op.value;
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return root;
}
