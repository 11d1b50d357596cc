/**
 * `go test`, text and `-json`. Text: `--- FAIL: TestX (0.00s)` lines, subtests nested
 * by indentation (`    --- FAIL: TestX/sub (0.00s)`), each followed by its `t.Error`
 * lines (`    calc_test.go:7: got -1, want 5`) or, for a panic, by `panic: ...`; then
 * `FAIL\t<package>\t0.01s`. A package that does not build reports
 * `FAIL\t<package> [build failed]` (a load failure, with the compiler's lines).
 * A parent failing only because a subtest failed is left out, as are node's suites.
 * Names are go's own (`TestTable/positive`, what `-run` takes); the file is the
 * `_test.go` file of the first message line. PURE.
 */
import { failedTest, type FailedTest } from './failed-test.js';
import { counted } from './summary-counts.js';
import type { TestRunner } from './test-runner.js';

export const GO_TEST: TestRunner = {
  name: 'go test',
  failures: (lines) => [...goTestJson(lines), ...goTestText(lines)],
  count: goTestCount,
  passed: goTestPassed,
};

interface GoFailure {
  readonly name: string;
  readonly lines: string[];
}

export function goTestText(lines: readonly string[]): FailedTest[] {
  const failures: GoFailure[] = [];
  let current: GoFailure | undefined;
  const loads: FailedTest[] = [];
  for (const line of lines) {
    const m = /^(\s*)--- FAIL: (\S+)(?: \([\d.]+s\))?\s*$/.exec(line);
    if (m?.[2]) {
      current = { name: m[2], lines: [] };
      failures.push(current);
      continue;
    }
    const build = /^FAIL\s+(\S+) \[(build|setup) failed\]\s*$/.exec(line);
    if (build?.[1]) loads.push(failedTest(build[1], undefined, compilerLines(lines, build[1]), 'load'));
    if (/^(FAIL|ok)\s|^=== (RUN|PAUSE|CONT)|^\s*--- (PASS|SKIP):/.test(line)) {
      current = undefined;
      continue;
    }
    if (current && (/^ +\S/.test(line) || /^panic: /.test(line))) current.lines.push(line);
    // What follows a panic is the goroutine dump.
    if (/^panic: /.test(line)) current = undefined;
  }
  return [...goFailures(failures), ...loads];
}

/** Parents (a failure whose subtest failed) out; message lines and panics kept, goroutine dumps not. */
function goFailures(failures: readonly GoFailure[]): FailedTest[] {
  const names = failures.map((f) => f.name);
  return failures
    .filter((f) => !names.some((n) => n.startsWith(`${f.name}/`)))
    .map((f) => {
      const kept = f.lines.filter((l) => !/^\s*--- FAIL:/.test(l));
      const file = kept.map((l) => /^\s*(\S+_test\.go):\d+:/.exec(l)?.[1]).find(Boolean);
      return failedTest(f.name, file, kept);
    });
}

/** `# pkg` then `file.go:2:23: message` lines printed for a build failure. */
function compilerLines(lines: readonly string[], pkg: string): string[] {
  const at = lines.findIndex((l) => l.startsWith(`# ${pkg}`) || l.includes(`FAIL# ${pkg}`));
  if (at === -1) return [];
  const out: string[] = [];
  for (let j = at + 1; j < lines.length && /^\S+\.go:\d+/.test(lines[j] ?? ''); j++) out.push(lines[j] ?? '');
  return out;
}

interface GoEvent {
  readonly Action?: string;
  readonly Package?: string;
  readonly Test?: string;
  readonly Output?: string;
}

/** `go test -json`: one event per line; `fail` events name the failures, `output` events explain them. */
export function goTestJson(lines: readonly string[]): FailedTest[] {
  const output = new Map<string, string[]>();
  const failed: { pkg: string; test: string }[] = [];
  for (const line of lines) {
    if (!line.startsWith('{"')) continue;
    let event: GoEvent;
    try {
      event = JSON.parse(line) as GoEvent;
    } catch {
      continue;
    }
    if (event.Test === undefined) continue;
    const key = `${event.Package ?? ''}\0${event.Test}`;
    if (event.Action === 'output' && event.Output !== undefined) {
      output.set(key, [...(output.get(key) ?? []), event.Output.replace(/\n$/, '')]);
    }
    if (event.Action === 'fail') failed.push({ pkg: event.Package ?? '', test: event.Test });
  }
  const tests = failed.map((f) => f.test);
  return failed
    .filter((f) => !tests.some((t) => t.startsWith(`${f.test}/`)))
    .map((f) => {
      const text = (output.get(`${f.pkg}\0${f.test}`) ?? []).filter(
        (l) => !/^\s*(=== (RUN|PAUSE|CONT)|--- (FAIL|PASS))/.test(l),
      );
      const panic = text.findIndex((l) => /^panic: /.test(l));
      const kept = (panic === -1 ? text : text.slice(0, panic + 1)).filter((l) => /^ +\S|^panic: /.test(l));
      const file = kept.map((l) => /^\s*(\S+_test\.go):\d+:/.exec(l)?.[1]).find(Boolean);
      return failedTest(f.test, file, kept);
    });
}

/**
 * How many ran: `-json` pass/fail events of tests; with `-v`, its `--- PASS:`/`--- FAIL:`
 * lines; else one per package that ran tests (`ok`/`FAIL <pkg> <time>`). Plain `go test`
 * prints `--- FAIL:` lines but no `--- PASS:` ones, so only a run that shows a pass is
 * counted by test.
 */
function goTestCount(lines: readonly string[]): number | undefined {
  const events = counted(lines, /^\{.*"Action":"(pass|fail)".*"Test":/);
  if (events !== undefined) return events;
  if (lines.some((l) => /^\s*--- PASS: /.test(l))) return counted(lines, /^\s*--- (PASS|FAIL): /);
  return counted(lines, /^(ok|FAIL)\s+\S+\s+(\(cached\)|[\d.]+s)/);
}

/** `--- PASS: TestX` (with -v) and `-json` pass events; plain `go test` prints no passing names. */
function goTestPassed(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const text = /^\s*--- PASS: (\S+)/.exec(line)?.[1];
    if (text !== undefined) out.push(text);
    if (!line.startsWith('{') || !line.includes('"pass"')) continue;
    try {
      const event = JSON.parse(line) as { Action?: string; Test?: string };
      if (event.Action === 'pass' && typeof event.Test === 'string') out.push(event.Test);
    } catch {
      // not a go test event
    }
  }
  return out;
}
