/**
 * `npm test --workspaces` runs the workspaces one after another, each after its
 * `> @scope/name@1.0.0 test` / `> mocha` header, with nothing in front of the lines, so two
 * runs of one runner follow each other (two mocha summaries, both numbering from `1)`)
 * and a parser reading the whole output joins them. PURE. The output is cut at each
 * header into one part per script run, each parsed on its own (as pnpm's prefixed parts
 * are, workspace-prefixes.ts).
 *
 * A failing workspace's part ends with npm's `npm error workspace <name>` and
 * `npm error path <its directory>` lines: its failures' relative files (mocha's, vitest's
 * `test/x.test.js`, relative to the workspace) are placed in that directory. The path is
 * absolute, which the baseline's file rules accept. A single package's `npm test` prints
 * no `npm error workspace` line and keeps its files as they are.
 */
import type { OutputPart } from './workspace-prefixes.js';

/**
 * `> @scope/name@1.0.0 test` (a scoped or plain name, its version, the script), or `> test`
 * alone for a package without a version (npm 11 prints no name then), then `> <command>`.
 */
const HEADER = /^> (?:(?:@[^\s@/]+\/)?[^\s@]+@\S+ )?[\w:.-]+$/;

export function npmWorkspaceParts(lines: readonly string[]): OutputPart[] {
  const starts = lines.flatMap((line, i) => (HEADER.test(line) && (lines[i + 1] ?? '').startsWith('> ') ? [i] : []));
  if (starts.length < 2) return [{ lines }];
  const parts: OutputPart[] = [{ lines: lines.slice(0, starts[0]) }];
  starts.forEach((start, k) => {
    const part = lines.slice(start, starts[k + 1] ?? lines.length);
    const workspace = part.some((l) => l.startsWith('npm error workspace '));
    const dir = workspace ? part.map((l) => /^npm error path (\/.+)$/.exec(l)?.[1]).find(Boolean) : undefined;
    parts.push(dir === undefined ? { lines: part } : { dir, lines: part });
  });
  return parts;
}
