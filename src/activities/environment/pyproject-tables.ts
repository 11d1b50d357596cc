/**
 * The two pyproject.toml tables the Python plan reads as data, not just as keys:
 * PEP 735 `[dependency-groups]` (requirement strings and `{include-group = "…"}`) and
 * `[project.optional-dependencies]`, whether written as its own table, as an inline table
 * (`optional-dependencies = { test = […] }`) or as dotted keys under `[project]`.
 *
 * Hand-written on purpose: the lockfile has no TOML parser (only `yaml`), and these are
 * tables of string arrays. It reads TOML values properly (basic and literal strings,
 * triple-quoted ones, multi-line arrays, inline tables, comments), so a `]` or `#` inside
 * a requirement's marker does not cut it short; what it cannot read it skips, never guesses.
 */

export type TomlValue = string | TomlValue[] | { [key: string]: TomlValue } | undefined;

/** A dependency group entry: a requirement string or an include of another group. */
export type GroupEntry = string | { readonly includeGroup: string };

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  /** Skips blanks, and with `lines` newlines and comments too. */
  skip(lines: boolean): void {
    for (;;) {
      const c = this.text[this.pos];
      if (c === ' ' || c === '\t' || c === '\r' || (lines && c === '\n')) this.pos += 1;
      else if (lines && c === '#') while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos += 1;
      else return;
    }
  }

  string(): string {
    const { text } = this;
    const quote = text[this.pos] ?? '"';
    const triple = text.startsWith(quote.repeat(3), this.pos);
    this.pos += triple ? 3 : 1;
    if (triple && text[this.pos] === '\n') this.pos += 1;
    let out = '';
    while (this.pos < text.length) {
      if (triple ? text.startsWith(quote.repeat(3), this.pos) : text[this.pos] === quote) {
        this.pos += triple ? 3 : 1;
        return out;
      }
      const c = text[this.pos] ?? '';
      if (c === '\\' && quote === '"') {
        const e = text[this.pos + 1] ?? '';
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', b: '\b', f: '\f' };
        if (e === 'u' || e === 'U') {
          const len = e === 'u' ? 4 : 8;
          out += String.fromCodePoint(parseInt(text.slice(this.pos + 2, this.pos + 2 + len), 16) || 0xfffd);
          this.pos += 2 + len;
        } else {
          out += simple[e] ?? '';
          this.pos += 2;
        }
      } else {
        out += c;
        this.pos += 1;
      }
    }
    return out;
  }

  /** A key, dotted parts joined with `.` (`"optional-dependencies".test`). */
  key(): string {
    const parts: string[] = [];
    for (;;) {
      this.skip(false);
      const c = this.text[this.pos];
      if (c === '"' || c === "'") parts.push(this.string());
      else {
        const bare = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.pos, this.pos + 200))?.[0] ?? '';
        if (bare === '') return parts.join('.');
        parts.push(bare);
        this.pos += bare.length;
      }
      this.skip(false);
      if (this.text[this.pos] !== '.') return parts.join('.');
      this.pos += 1;
    }
  }

  value(): TomlValue {
    this.skip(false);
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string();
    if (c === '[') {
      this.pos += 1;
      const items: TomlValue[] = [];
      for (this.skip(true); this.pos < this.text.length && this.text[this.pos] !== ']'; this.skip(true)) {
        items.push(this.value());
        this.skip(true);
        if (this.text[this.pos] === ',') this.pos += 1;
      }
      this.pos += 1;
      return items;
    }
    if (c === '{') {
      this.pos += 1;
      const table: { [key: string]: TomlValue } = {};
      for (this.skip(true); this.pos < this.text.length && this.text[this.pos] !== '}'; this.skip(true)) {
        const key = this.key();
        this.skip(false);
        if (key === '' || this.text[this.pos] !== '=') return this.bail(table);
        this.pos += 1;
        table[key] = this.value();
        this.skip(true);
        if (this.text[this.pos] === ',') this.pos += 1;
      }
      this.pos += 1;
      return table;
    }
    // Numbers, booleans, dates: not needed, skipped to the next delimiter.
    while (this.pos < this.text.length && !/[,\]}\n#]/.test(this.text[this.pos] ?? '')) this.pos += 1;
    return undefined;
  }

  /** Unreadable text: stop at the end of the line (the caller's loop goes on from there). */
  private bail<T>(partial: T): T {
    while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos += 1;
    return partial;
  }
}

/** The key/value pairs of a `[header]` table (dotted keys joined), or undefined without it. */
export function readTable(text: string, header: string): Map<string, TomlValue> | undefined {
  const escaped = header.split('.').map((p) => p.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  const match = new RegExp(`^[ \\t]*\\[[ \\t]*${escaped.join('[ \\t]*\\.[ \\t]*')}[ \\t]*\\][ \\t]*(#.*)?$`, 'm').exec(
    text,
  );
  if (!match) return undefined;
  const reader = new Reader(text);
  reader.pos = match.index + match[0].length;
  const table = new Map<string, TomlValue>();
  for (reader.skip(true); reader.pos < reader.text.length && reader.text[reader.pos] !== '['; reader.skip(true)) {
    const key = reader.key();
    reader.skip(false);
    if (key === '' || reader.text[reader.pos] !== '=') {
      while (reader.pos < reader.text.length && reader.text[reader.pos] !== '\n') reader.pos += 1;
      continue;
    }
    reader.pos += 1;
    table.set(key, reader.value());
  }
  return table;
}

const strings = (value: TomlValue): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** PEP 735 `[dependency-groups]`: group name as written → its entries (empty map without the table). */
export function dependencyGroups(pyproject: string): Map<string, GroupEntry[]> {
  const groups = new Map<string, GroupEntry[]>();
  for (const [name, value] of readTable(pyproject, 'dependency-groups') ?? []) {
    if (!Array.isArray(value)) continue;
    groups.set(
      name,
      value.flatMap((v): GroupEntry[] => {
        if (typeof v === 'string') return [v];
        const include = v !== undefined && !Array.isArray(v) ? v['include-group'] : undefined;
        return typeof include === 'string' ? [{ includeGroup: include }] : [];
      }),
    );
  }
  return groups;
}

/** `[project.optional-dependencies]` in any of its three spellings: extra → requirement strings. */
export function optionalDependencies(pyproject: string): Map<string, string[]> {
  const extras = new Map<string, string[]>();
  for (const [name, value] of readTable(pyproject, 'project.optional-dependencies') ?? []) {
    extras.set(name, strings(value));
  }
  for (const [key, value] of readTable(pyproject, 'project') ?? []) {
    if (key === 'optional-dependencies' && value !== undefined && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, reqs] of Object.entries(value)) extras.set(name, strings(reqs));
    } else if (key.startsWith('optional-dependencies.')) {
      extras.set(key.slice('optional-dependencies.'.length), strings(value));
    }
  }
  return extras;
}
