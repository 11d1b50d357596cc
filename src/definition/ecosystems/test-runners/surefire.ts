/**
 * Maven's runners: javac, whose errors are load failures (surefire-console.ts), and
 * Surefire, read from its XML reports when the run wrote them (surefire-xml.ts: exact
 * names) and from its console otherwise. PURE.
 */
import { mavenCompileErrors, surefireConsole } from './surefire-console.js';
import { parseSurefireXml, passedInSurefireXml } from './surefire-xml.js';
import type { TestRunner } from './test-runner.js';

export const JAVAC: TestRunner = {
  name: 'javac',
  failures: (lines) => mavenCompileErrors(lines),
};

export const SUREFIRE: TestRunner = {
  name: 'Surefire',
  reportFailures: (reports) => parseSurefireXml(reports.surefireXml ?? []),
  // A console name cannot tell a `@Nested` class from its outer one: read only without the XML.
  failuresWithoutReport: (lines, reports) => ((reports.surefireXml ?? []).length > 0 ? [] : surefireConsole(lines)),
  count: surefireTotals,
  reportPassed: (reports) => (reports.surefireXml === undefined ? [] : passedInSurefireXml(reports.surefireXml)),
};

/** The totals (the per-class lines carry `Time elapsed`): `Tests run: 30, Failures: 2, Errors: 0, Skipped: 1`. */
function surefireTotals(lines: readonly string[]): number | undefined {
  let total: number | undefined;
  for (const l of lines) {
    if (l.includes('Time elapsed')) continue;
    const m = /Tests run: (\d+), Failures: \d+, Errors: \d+, Skipped: (\d+)/.exec(l);
    if (m) total = (total ?? 0) + Number(m[1]) - Number(m[2]);
  }
  return total;
}
