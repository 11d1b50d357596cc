/**
 * What judge-the-commit undid, one line per kind, for the run's warnings (printed by
 * `start-run --follow`, `status` and the run's summary). Ignored files are told apart:
 * build outputs and caches the agent's own builds and test runs leave (`__pycache__`,
 * `target/surefire-reports`) are routine and summed up by directory; any other file is
 * named, since a planted `conftest.py` must not hide among bytecode. PURE.
 */
import type { JudgedTree } from './judge-the-commit.js';

const LISTED = 5;
/** A path segment of the build outputs and caches test tools and builds write. */
const OUTPUT_SEGMENT =
  /(^|\/)(__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.hypothesis|\.tox|\.nox|node_modules|target|build|dist|out|coverage|\.gradle|\.cache|\.next|\.turbo|CMakeFiles)(\/|$)/;

function some(paths: readonly string[], listed = LISTED): string {
  const shown = paths.slice(0, listed).join(', ');
  return paths.length > listed ? `${shown} and ${paths.length - listed} more` : shown;
}

/** The directory of an output path up to its output segment (`src/__pycache__/`). */
function outputDir(rel: string): string {
  const m = OUTPUT_SEGMENT.exec(rel);
  return m === null ? rel : `${rel.slice(0, m.index + m[1]!.length + m[2]!.length)}/`;
}

export function describeJudgedTree(judged: JudgedTree): string[] {
  const notes: string[] = [];
  if (judged.headMoved !== undefined)
    notes.push(
      `HEAD was ${judged.headMoved.from === undefined ? 'detached' : `on ${judged.headMoved.from}`}, not on the run's branch ${judged.headMoved.to} (the one delivered); put back on it with the worktree and index as they were, so what the branch lacks counts as uncommitted`,
    );
  if (judged.unhidden.length > 0)
    notes.push(
      `git's index hid ${some(judged.unhidden)} from \`git status\` (skip-worktree or assume-unchanged); the index was rebuilt, so an uncommitted change there counts`,
    );
  const outputs = judged.setAside.filter((rel) => OUTPUT_SEGMENT.test(rel));
  const others = judged.setAside.filter((rel) => !OUTPUT_SEGMENT.test(rel));
  const where = judged.setAsideDir === undefined ? '' : ` (kept in ${judged.setAsideDir} while the worktree lives)`;
  if (others.length > 0)
    notes.push(
      `set aside ${others.length} git-ignored file(s) the agent's commands wrote that no commit holds: ${some(others, 20)}${where}; the validators judge the commit without them`,
    );
  // Alone, moved outputs and caches are routine (every pytest run leaves some): no warning.
  if (outputs.length > 0 && others.length > 0)
    notes.push(
      `set aside ${outputs.length} build output and cache file(s) the agent's own commands wrote (${some([...new Set(outputs.map(outputDir))])}); the validators build their own`,
    );
  if (judged.freshened.length > 0)
    notes.push(
      `${some(judged.freshened)} had a modification time set back; given the current time so the validators rebuild from it`,
    );
  return notes;
}

/** The report's `treeNotes`: absent when nothing was undone. */
export function treeNotesOf(judged: JudgedTree): { readonly treeNotes?: readonly string[] } {
  const notes = describeJudgedTree(judged);
  return notes.length === 0 ? {} : { treeNotes: notes };
}
