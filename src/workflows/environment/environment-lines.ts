/**
 * What the environment phase and the preflight tell the user, one line each: what was
 * detected and why, each setup step (ran, reused from the cache, skipped), the
 * warnings, and each validator command's verdict on the base. PURE.
 */
import type { EnvironmentReport, SetupStepReport } from '../../contracts/environment.js';
import type { PreflightCheck, PreflightReport } from '../../contracts/preflight.js';

const MAX_COMMAND = 100;

const LONG_PATH = 40;

/**
 * A long path keeps its head and its tail (two copies into different dirs differ only at
 * their ends), each whole segments; then the line is capped at a word's end.
 */
function short(command: string): string {
  const one = command
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .map((word) => (word.length > LONG_PATH && word.includes('/') ? shortPath(word) : word))
    .join(' ');
  if (one.length <= MAX_COMMAND) return one;
  const cut = one.lastIndexOf(' ', MAX_COMMAND - 2);
  return `${one.slice(0, cut > MAX_COMMAND / 2 ? cut : MAX_COMMAND - 1)} …`;
}

/** `/tmp/s/xdg/issue-agent/cache/tools/yarn/bin/yarn.js` → `/tmp/s/…/tools/yarn/bin/yarn.js`: whole segments. */
function shortPath(word: string): string {
  const parts = word.split('/');
  // Leading segments while the head stays within 12 characters (the first always).
  let headEnd = 1;
  while (headEnd < parts.length - 1 && parts.slice(0, headEnd + 1).join('/').length <= 12) headEnd += 1;
  // Trailing segments, not reaching into the head, while the tail stays within 24 (the last always).
  let tailStart = parts.length - 1;
  while (tailStart > headEnd && parts.slice(tailStart - 1).join('/').length <= 24) tailStart -= 1;
  if (tailStart <= headEnd) return word;
  return `${parts.slice(0, headEnd).join('/')}/…/${parts.slice(tailStart).join('/')}`;
}

function stepLine(step: SetupStepReport): string {
  const seconds = (step.durationMs / 1000).toFixed(1);
  const cache = step.cacheHit ? ', cache warm' : '';
  return `setup: \`${short(step.command)}\` ${step.status} (${seconds} s${cache})`;
}

export function environmentLines(report: EnvironmentReport): string[] {
  const lines = report.detected.map((line) => `detected: ${line}`);
  lines.push(...report.steps.map(stepLine));
  if (report.steps.length === 0 && report.detected.length === 0) lines.push('setup: nothing to prepare');
  else if (report.cached) lines.push('setup: every install came from the cache');
  lines.push(...report.warnings.map((w) => `setup warning: ${w}`));
  return lines;
}

function checkLine(check: PreflightCheck): string {
  const head = `preflight: ${check.validator}: ${check.status}`;
  const names = check.failedTests?.length
    ? ` (${check.failedTests.length} failing on the base, kept as the baseline: ${check.failedTests.slice(0, 3).join(', ')}${check.failedTests.length > 3 ? ', …' : ''})`
    : '';
  return `${head}${names} · ${check.summary.replace(/\s*\n\s*/g, ' · ')}`;
}

export function preflightLines(report: PreflightReport): string[] {
  if (report.skipped !== undefined) return [`preflight: skipped: ${report.skipped}`];
  if (report.checks.length === 0) return ['preflight: no validator command to check'];
  return report.checks.map(checkLine);
}
