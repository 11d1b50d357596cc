/**
 * `cargo test` (libtest): `test mod::name ... FAILED` lines name the failures; each
 * has a `---- mod::name stdout ----` section whose `thread '…' panicked at
 * src/lib.rs:9:9:` line gives the file and is followed by the panic message
 * (`assertion \`left == right\` failed`, `left: -1`, `right: 5`) and, when
 * RUST_BACKTRACE is set, a backtrace that is left out. A crate whose tests do not
 * compile reports `error: could not compile \`name\``: a load failure carrying the
 * compiler's first error. PURE.
 *
 * `cargo test --no-fail-fast` runs every test binary (`Running unittests src/lib.rs`,
 * `Running tests/a.rs`, doc-tests), each with its own failures: the output is read one
 * binary at a time, so two files' tests of the same name keep their own panic, and an
 * integration test without a panic line is placed in its `tests/*.rs` file (in a workspace,
 * `cargo test --workspace`, the member crate's: `crates/beta/tests/api.rs`).
 */
import { failedTest, type FailedTest } from './failed-test.js';
import { summed } from './summary-counts.js';
import type { TestRunner } from './test-runner.js';

export const CARGO_TEST: TestRunner = {
  name: 'cargo test',
  failures: (lines) => cargoTest(lines),
  // Per test binary: `test result: ok. 28 passed; 2 failed; 1 ignored; …`.
  count: (lines) => summed(lines, /^test result: \w+\. (.+)$/),
  // `test mod::name ... ok`.
  passed: (lines) =>
    lines.map((l) => /^test (.+?) \.\.\. ok\s*$/.exec(l)?.[1]).filter((n): n is string => n !== undefined),
};

export function cargoTest(lines: readonly string[]): FailedTest[] {
  return [...binaries(lines).flatMap(binaryFailures), ...compileFailures(lines)];
}

interface TestBinary {
  /** `tests/a.rs` for an integration test binary; unset for unit tests and doc-tests. */
  readonly file?: string;
  readonly lines: readonly string[];
}

/** The output cut at each `Running …` / `Doc-tests …` header (the part before the first is one binary too). */
function binaries(lines: readonly string[]): TestBinary[] {
  const out: TestBinary[] = [];
  let current: { file?: string; lines: string[] } = { lines: [] };
  for (const line of lines) {
    const running = /^\s+Running (unittests )?(\S+)/.exec(line);
    if (running || /^\s+Doc-tests /.test(line)) {
      out.push(current);
      current = { ...(running?.[2] && !running[1] ? { file: running[2] } : {}), lines: [] };
      continue;
    }
    current.lines.push(line);
  }
  return [...out, current];
}

function binaryFailures(binary: TestBinary): FailedTest[] {
  const sections = panicSections(binary.lines);
  const file = memberFile(binary.file, sections);
  const out: FailedTest[] = [];
  for (const line of binary.lines) {
    const m = /^test (.+?) \.\.\. FAILED\s*$/.exec(line);
    if (!m?.[1]) continue;
    const section = sections.get(m[1]);
    out.push(failedTest(m[1], section?.file ?? file, section?.lines));
  }
  return out;
}

/**
 * In a workspace cargo prints an integration test binary relative to its crate
 * (`Running tests/api.rs`) but panics relative to the workspace root
 * (`crates/beta/tests/api.rs`): a sibling's panic in the same file gives the crate's
 * directory to the binary's tests that failed without one (a returned `Err`).
 */
function memberFile(file: string | undefined, sections: ReadonlyMap<string, PanicSection>): string | undefined {
  if (file === undefined) return undefined;
  const panicked = [...sections.values()].map((s) => s.file);
  return panicked.find((f) => f !== undefined && f.endsWith(`/${file}`)) ?? file;
}

interface PanicSection {
  readonly file?: string;
  readonly lines: string[];
}

function panicSections(lines: readonly string[]): Map<string, PanicSection> {
  const out = new Map<string, PanicSection>();
  for (let i = 0; i < lines.length; i++) {
    const head = /^---- (.+?) stdout ----\s*$/.exec(lines[i] ?? '');
    if (!head?.[1]) continue;
    let file: string | undefined;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j] ?? '';
      if (/^---- .+ stdout ----|^(stack backtrace:|note: |failures:\s*$)/.test(l)) break;
      const panicked = /^thread '.*' (?:\(\d+\) )?panicked at (.+?):\d+:\d+:?\s*$/.exec(l);
      if (panicked) {
        file = panicked[1];
        continue;
      }
      body.push(l);
    }
    out.set(head[1], { ...(file ? { file } : {}), lines: body });
  }
  return out;
}

/** `error[E0308]: mismatched types` / ` --> src/lib.rs:1:36` … `error: could not compile \`rs\` (lib test)`. */
function compileFailures(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  lines.forEach((line, i) => {
    const m = /^error: could not compile `([^`]+)`(?: \(([^)]+)\))?/.exec(line);
    if (!m?.[1]) return;
    const first = lines.slice(0, i).findIndex((l) => /^error(\[E\d+\])?: /.test(l));
    const excerpt = first === -1 ? [line] : lines.slice(first, first + 2);
    const file = /^\s*--> (.+?):\d+:\d+/.exec(lines[first + 1] ?? '')?.[1];
    out.push(failedTest(m[2] ? `${m[1]} (${m[2]})` : m[1], file, excerpt, 'load'));
  });
  return out;
}
