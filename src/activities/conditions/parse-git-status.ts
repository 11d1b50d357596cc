/**
 * Extractors over `git status --porcelain` (v1) output. PURE: no I/O, bundle-safe.
 *
 * Each line is `XY path` (X = index, Y = work tree) or `XY orig -> path` for renames;
 * paths with special characters are C-quoted by git.
 */

interface PorcelainEntry {
  readonly index: string;
  readonly workTree: string;
  readonly path: string;
}

export function parsePorcelain(output: string): PorcelainEntry[] {
  const entries: PorcelainEntry[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (line.length < 4 || line[2] !== ' ') continue;
    const raw = line.slice(3);
    const arrow = raw.indexOf(' -> ');
    entries.push({
      index: line[0] ?? ' ',
      workTree: line[1] ?? ' ',
      path: unquote(arrow === -1 ? raw : raw.slice(arrow + 4)),
    });
  }
  return entries;
}

/** Tracked files with any change (staged or not), excluding untracked and ignored ones. */
export function parseChangedFiles(output: string): string[] {
  return parsePorcelain(output)
    .filter((e) => e.index !== '?' && e.index !== '!')
    .map((e) => e.path);
}

export function parseUntrackedFiles(output: string): string[] {
  return parsePorcelain(output)
    .filter((e) => e.index === '?' && e.workTree === '?')
    .map((e) => e.path);
}

export function parseStagedFiles(output: string): string[] {
  return parsePorcelain(output)
    .filter((e) => e.index !== ' ' && e.index !== '?' && e.index !== '!')
    .map((e) => e.path);
}

export function parseUnstagedFiles(output: string): string[] {
  return parsePorcelain(output)
    .filter((e) => e.index !== '?' && e.index !== '!' && e.workTree !== ' ')
    .map((e) => e.path);
}

/** Undoes git's C-style quoting of unusual paths (`"a \"b\".txt"`, octal escapes). */
function unquote(path: string): string {
  if (!(path.startsWith('"') && path.endsWith('"') && path.length >= 2)) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] ?? '';
    if (ch !== '\\') {
      bytes.push(...utf8(ch));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return decodeUtf8(bytes);
}

function utf8(ch: string): number[] {
  return [...new TextEncoder().encode(ch)];
}

function decodeUtf8(bytes: readonly number[]): string {
  return new TextDecoder().decode(new Uint8Array(bytes));
}
