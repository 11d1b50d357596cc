/**
 * Maven Surefire's console output, when no XML report was collected (surefire-xml.ts is
 * exact and comes first; a console name cannot tell a `@Nested` class from its outer
 * one). PURE. Every Surefire version prints one line per failing test, followed by the
 * exception and its stack trace:
 *
 *   3.x    `[ERROR] demo.CalcTest.subtracts -- Time elapsed: 0.006 s <<< FAILURE!`
 *   3.0-M  `[ERROR] subtracts  Time elapsed: 0.006 s  <<< FAILURE!` (class from the header)
 *   2.x    `subtracts(demo.CalcTest)  Time elapsed: 0.006 sec  <<< ERROR!`
 *
 * each after its class's header (`Running demo.CalcTest`, `Tests run: … -- in
 * demo.CalcTest`). Names are `demo.CalcTest#subtracts`, as from the XML. Only when no
 * such line is found is the recap read (`[ERROR]   CalcTest.subtracts:15 expected…`,
 * 2.x `Failed tests:   subtracts(demo.CalcTest): …`), its simple class names resolved
 * through the headers. `-q` keeps all of these (they are printed at ERROR level).
 *
 * A module whose code does not compile (`[ERROR] /…/src/test/java/demo/DivTest.java:[10,29]
 * cannot find symbol`) is a load failure named by the file from `src/` on (the worktree's
 * own path differs between runs), with the compiler's message.
 */
import { failedTest, type FailedTest } from './failed-test.js';
import { javaExcerpt, surefireTestName } from './surefire-xml.js';

const LEVEL = /^\[(?:ERROR|INFO|WARNING|WARN)\] ?/;
const HEADER = /^Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+.* -{1,2} in (\S+)\s*$/;
const RUNNING = /^Running (\S+)\s*$/;
const DETAIL = /^(\S.*?)\s+(?:-- )?Time elapsed: [\d.,]+ s(?:ec)?\s+<<< (?:FAILURE|ERROR)!\s*$/;
const COMPILE = /^\[ERROR\] (\S+\.(?:java|kt|groovy|scala)):\[(\d+)(?:,\d+)?\] (.+)$/;

const body = (line: string): string => line.replace(LEVEL, '');

export function surefireConsole(lines: readonly string[]): FailedTest[] {
  const details = detailFailures(lines);
  return details.length > 0 ? details : recapFailures(lines);
}

function detailFailures(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  let current = '';
  lines.forEach((line, i) => {
    const text = body(line);
    const header = HEADER.exec(text) ?? RUNNING.exec(text);
    if (header?.[1]) {
      current = header[1];
      return;
    }
    const m = DETAIL.exec(text);
    if (!m?.[1] || text.startsWith('Tests run:')) return;
    const [className, method] = split(m[1], current);
    out.push(failedTest(surefireTestName(className, method), undefined, javaExcerpt(trace(lines, i), {}, className)));
  });
  return out;
}

/** `[class, method]` of a detail line's name, in any of the three forms. */
function split(name: string, current: string): [string, string] {
  const old = /^([\w$]+)\(([\w$.]+)\)$/.exec(name);
  if (old?.[1] && old[2]) return [old[2], old[1]];
  if (current !== '' && name.startsWith(`${current}.`)) return [current, name.slice(current.length + 1)];
  const end = name.search(/[([]/);
  const head = end === -1 ? name : name.slice(0, end);
  const dot = head.lastIndexOf('.');
  if (dot === -1) return [current, name];
  return [name.slice(0, dot), name.slice(dot + 1)];
}

/** The lines after a detail line: the exception and its trace, up to a blank line or the next `[LEVEL]` line. */
function trace(lines: readonly string[], at: number): string {
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' || LEVEL.test(line) || DETAIL.test(line)) break;
    out.push(line);
  }
  return out.join('\n');
}

/** The recap: `Failures:` / `Errors:` (3.x) or `Failed tests:` / `Tests in error:` (2.x) blocks. */
function recapFailures(lines: readonly string[]): FailedTest[] {
  if (!lines.some((l) => /^Tests run: \d+, Failures: \d+/.test(body(l)))) return [];
  const classes = new Map<string, string>();
  for (const line of lines) {
    const full = (HEADER.exec(body(line)) ?? RUNNING.exec(body(line)))?.[1];
    if (full) classes.set(full.split('.').pop() ?? full, full);
  }
  const out: FailedTest[] = [];
  let inBlock = false;
  for (const line of lines) {
    const text = body(line);
    const start = /^(?:Failures|Errors|Failed tests|Tests in error):\s*(.*)$/.exec(text);
    const entry: string | undefined = start ? start[1] : inBlock && /^\s{2,}\S/.test(text) ? text.trim() : undefined;
    inBlock = start !== null || (inBlock && entry !== undefined);
    if (entry === undefined || entry === '' || /^Run \d+: /.test(entry)) continue;
    const failure = recapEntry(entry, classes);
    if (failure) out.push(failure);
  }
  return out;
}

/** `CalcTest.subtracts:15 expected…`, `CalcTest>Base.check:9 …`, `subtracts(demo.CalcTest): expected…`. */
function recapEntry(entry: string, classes: ReadonlyMap<string, string>): FailedTest | undefined {
  const old = /^([\w$]+)\(([\w$.]+)\):?\s*(.*)$/.exec(entry);
  if (old?.[1] && old[2]) return failedTest(surefireTestName(old[2], old[1]), undefined, [old[3] ?? '']);
  const m = /^([\w$.]+?)(?:>[\w$.]+)?\.([\w$]+)(?::\d+)?(?:->\S+)?(?:\s+(.*))?$/.exec(entry);
  if (!m?.[1] || !m[2]) return undefined;
  const className = classes.get(m[1]) ?? m[1];
  return failedTest(surefireTestName(className, m[2]), undefined, [m[3] ?? '']);
}

/** javac's errors, one load failure per source file, from `src/` on. */
export function mavenCompileErrors(lines: readonly string[]): FailedTest[] {
  const out = new Map<string, string[]>();
  lines.forEach((line, i) => {
    const m = COMPILE.exec(line);
    if (!m?.[1] || !m[3]) return;
    const at = m[1].lastIndexOf('/src/');
    const file = at === -1 ? m[1] : m[1].slice(at + 1);
    const more = lines.slice(i + 1, i + 3).filter((l) => /^(?:\[ERROR\])?\s+(symbol|location):/.test(l));
    const excerpt = out.get(file) ?? [];
    const message = `${file}:${m[2]}: ${m[3]}`;
    if (!excerpt.includes(message)) excerpt.push(message, ...more.map((l) => body(l).trim()));
    out.set(file, excerpt);
  });
  return [...out].map(([file, excerpt]) => failedTest(file, file, excerpt, 'load'));
}
