/**
 * Reads `git diff -U0` output into files with their added and removed lines and the
 * line numbers they have (new side for added, old side for removed). PURE. The
 * test-integrity guard works on this, so it sees exactly what the run changed and
 * never has to re-read files.
 */

export const FileChange = { Added: 'added', Deleted: 'deleted', Modified: 'modified' } as const;
export type FileChange = (typeof FileChange)[keyof typeof FileChange];

export interface DiffLine {
  /** New-side line number for an added line, old-side for a removed one. */
  readonly line: number;
  readonly text: string;
  /** Index of the hunk in its file: removed and added lines of one hunk replace each other. */
  readonly hunk: number;
}

export interface FileDiff {
  /** Path relative to the repository root (the new path; the old one for a deletion). */
  readonly path: string;
  readonly change: FileChange;
  readonly binary: boolean;
  readonly added: readonly DiffLine[];
  readonly removed: readonly DiffLine[];
}

interface Draft {
  path: string;
  change: FileChange;
  binary: boolean;
  added: DiffLine[];
  removed: DiffLine[];
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: Draft[] = [];
  let current: Draft | undefined;
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  let hunkIndex = -1;
  for (const raw of text.split('\n')) {
    if (raw.startsWith('diff --git ')) {
      current = { path: pathFromHeader(raw), change: FileChange.Modified, binary: false, added: [], removed: [] };
      files.push(current);
      inHunk = false;
      hunkIndex = -1;
      continue;
    }
    if (current === undefined) continue;
    const hunk = HUNK.exec(raw);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      hunkIndex++;
      continue;
    }
    if (!inHunk) {
      if (raw.startsWith('new file mode')) current.change = FileChange.Added;
      else if (raw.startsWith('deleted file mode')) current.change = FileChange.Deleted;
      else if (raw.startsWith('Binary files ')) current.binary = true;
      else if (raw.startsWith('+++ b/')) current.path = unquote(raw.slice('+++ b/'.length));
      else if (raw.startsWith('--- a/') && current.change === FileChange.Deleted)
        current.path = unquote(raw.slice('--- a/'.length));
      continue;
    }
    if (raw.startsWith('+')) current.added.push({ line: newLine++, text: raw.slice(1), hunk: hunkIndex });
    else if (raw.startsWith('-')) current.removed.push({ line: oldLine++, text: raw.slice(1), hunk: hunkIndex });
    else if (raw.startsWith(' ')) {
      oldLine++;
      newLine++;
    }
    // "\ No newline at end of file" and blank separators carry no line.
  }
  return files;
}

/** `diff --git a/x b/x`: the b/ side (paths are equal without renames). */
function pathFromHeader(header: string): string {
  const rest = header.slice('diff --git '.length);
  const b = rest.lastIndexOf(' b/');
  return unquote(b === -1 ? rest : rest.slice(b + 3));
}

function unquote(path: string): string {
  const trimmed = path.replace(/\t.*$/, '');
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}
