/**
 * Failed test names from test runner output. PURE: no I/O, bundle-safe.
 *
 * Recognises node's test runner (TAP `not ok N - name`; spec `✖ name (1.2ms)` with
 * its "failing tests" recap), vitest (`FAIL  file > suite > name`, `× name`) and jest
 * (`● suite › name` under `FAIL path`). Suites that fail only because a child failed
 * are left out: the retry prompt should name the tests to fix, not their containers.
 */
import { stripAnsi } from './strip-ansi.js';

export interface FailedTest {
  readonly name: string;
  readonly file?: string;
}

export function parseTestOutput(output: string): FailedTest[] {
  const lines = stripAnsi(output).split(/\r?\n/);
  const found = [...nodeTap(lines), ...nodeSpec(lines), ...vitest(lines), ...jest(lines)];
  return dedupe(found);
}

/** TAP: `not ok 2 - name`, then an indented YAML block with `location` and `failureType`. */
function nodeTap(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  lines.forEach((line, i) => {
    const m = /^\s*not ok \d+ - (.+?)(?:\s+#\s*(?:TODO|SKIP).*)?$/.exec(line);
    if (!m?.[1]) return;
    const block = yamlBlockAfter(lines, i);
    if (block.some((l) => /failureType:\s*'?subtestsFailed/.test(l))) return;
    const location = block.map((l) => /^\s*location:\s*'?(.+?):\d+:\d+'?\s*$/.exec(l)?.[1]).find(Boolean);
    out.push(withFile(unescapeTap(m[1]), location));
  });
  return out;
}

function yamlBlockAfter(lines: readonly string[], index: number): string[] {
  if (!/^\s*---\s*$/.test(lines[index + 1] ?? '')) return [];
  const block: string[] = [];
  for (let j = index + 2; j < lines.length && !/^\s*\.\.\.\s*$/.test(lines[j] ?? ''); j++) block.push(lines[j] ?? '');
  return block;
}

/** Spec reporter: `✖ name (1.2ms)`; suites are announced by `▶ name` and excluded. */
function nodeSpec(lines: readonly string[]): FailedTest[] {
  const suites = new Set(lines.map((l) => /^\s*▶ (.+)$/.exec(l)?.[1]?.trim()).filter((s): s is string => !!s));
  const out: FailedTest[] = [];
  let location: string | undefined;
  for (const line of lines) {
    const at = /^\s*test at (.+?):\d+:\d+\s*$/.exec(line);
    if (at) {
      location = at[1];
      continue;
    }
    const m = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?\s*$/.exec(line);
    if (!m?.[1] || m[1] === 'failing tests:' || suites.has(m[1])) continue;
    out.push(withFile(m[1], location));
    location = undefined;
  }
  return out;
}

/** vitest: `FAIL  file > suite > name` recaps; `× name` tree lines only when no recap exists. */
function vitest(lines: readonly string[]): FailedTest[] {
  const recaps: FailedTest[] = [];
  for (const line of lines) {
    const m = /^\s*FAIL\s+(\S+?)\s+>\s+(.+?)\s*$/.exec(line);
    if (m?.[1] && m[2]) recaps.push({ name: m[2].trim(), file: m[1] });
  }
  if (recaps.length > 0) return recaps;
  const out: FailedTest[] = [];
  let file: string | undefined;
  for (const line of lines) {
    const header = /^\s*[❯›]\s+(\S+\.\w+)\s+\(\d+ tests?/.exec(line);
    if (header) file = header[1];
    const m = /^\s*×\s+(.+?)(?:\s+\d+ms)?\s*$/.exec(line);
    if (m?.[1]) out.push(withFile(m[1], file));
  }
  return out;
}

/** jest: `FAIL path` headers, then `● suite › name` blocks for each failure. */
function jest(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  let file: string | undefined;
  for (const line of lines) {
    const header = /^\s*FAIL\s+(\S+)\s*$/.exec(line);
    if (header) {
      file = header[1];
      continue;
    }
    if (/^\s*PASS\s+\S+\s*$/.test(line)) file = undefined;
    const m = /^\s*● (.+?)\s*$/.exec(line);
    if (m?.[1] && !/^Console$/.test(m[1])) out.push(withFile(m[1], file));
  }
  return out;
}

function withFile(name: string, file: string | undefined): FailedTest {
  return file ? { name: name.trim(), file } : { name: name.trim() };
}

function unescapeTap(name: string): string {
  return name.replace(/\\#/g, '#').replace(/\\\\/g, '\\');
}

/**
 * The same test reported twice (inline and in a recap): keep one, preferring the entry
 * with a file. Same-named failures in different files (jest's "Test suite failed to
 * run") stay separate.
 */
function dedupe(tests: readonly FailedTest[]): FailedTest[] {
  const out: FailedTest[] = [];
  for (const t of tests) {
    const i = out.findIndex((o) => o.name === t.name && (o.file === t.file || !o.file || !t.file));
    if (i === -1) out.push(t);
    else if (!out[i]?.file && t.file) out[i] = t;
  }
  return out;
}
