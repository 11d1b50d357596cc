/**
 * `pnpm -r test` and `pnpm --filter … run test` over several packages prefix every line
 * of a package's output with its directory and script (`packages/beta test:  FAIL  src/x.test.ts
 * > suite > name`) and interleave the packages, so no runner's parser recognises its own
 * lines. PURE. The output is cut into one part per package, prefixes taken off, and each
 * part is parsed on its own; a failure's relative file is placed in its package
 * (`packages/beta/src/x.test.ts`).
 *
 * A prefix counts only when pnpm announced it with its `<dir> <script>$ <command>` line:
 * `AssertionError [ERR_ASSERTION]: …` also looks like `<word> <word>: …`.
 */
import path from 'node:path';
import type { FailedTest } from '../../../definition/ecosystems/test-runners/failed-test.js';

export interface OutputPart {
  /** The package directory pnpm printed (`packages/beta`); unset for unprefixed lines. */
  readonly dir?: string;
  readonly lines: readonly string[];
}

const HEADER = /^(\S+) ([\w:.-]+)\$ \S/;

/** The output as one part per announced package, in order of first appearance, and the rest. */
export function workspaceParts(lines: readonly string[]): OutputPart[] {
  const prefixes = new Map<string, string>();
  for (const line of lines) {
    const m = HEADER.exec(line);
    if (m?.[1] && m[2]) prefixes.set(`${m[1]} ${m[2]}`, m[1]);
  }
  if (prefixes.size === 0) return [{ lines }];
  const rest: string[] = [];
  const parts = new Map<string, string[]>();
  for (const line of lines) {
    const prefix = [...prefixes.keys()].find((p) => line.startsWith(`${p}: `) || line === `${p}:`);
    if (prefix === undefined) {
      if (!HEADER.test(line)) rest.push(line);
      continue;
    }
    const part = parts.get(prefix) ?? [];
    part.push(line.slice(prefix.length + 2));
    parts.set(prefix, part);
  }
  return [...[...parts].map(([prefix, part]) => ({ dir: prefixes.get(prefix) ?? '.', lines: part })), { lines: rest }];
}

/** A failure found in a package's part, its relative file joined to the package directory. */
export function inPackage(dir: string | undefined, failure: FailedTest): FailedTest {
  if (dir === undefined || failure.file === undefined || path.isAbsolute(failure.file)) return failure;
  return { ...failure, file: path.posix.join(dir, failure.file) };
}
