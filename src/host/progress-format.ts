/**
 * One line of live progress, and the end-of-run summary. What they show of the run's own
 * text (step summaries, the reason, the last error, environment lines, a question) goes
 * through terminalText: the model or the tested code wrote it, and it is printed on the
 * operator's terminal.
 */
import { effectLabel } from '../contracts/delivery.js';
import { waitingLine as waitingText } from '../contracts/human-loop.js';
import { RunPhase, type RunProgress, type RunResult } from '../contracts/run.js';
import { terminalLine, terminalText } from './terminal-text.js';

/** What the run waits for (a budget, a plan's approval, an answer), or undefined. */
export function waitingLine(p: Parameters<typeof waitingText>[0]): string | undefined {
  const line = waitingText(p);
  return line === undefined ? undefined : terminalText(line);
}

export function progressLine(p: RunProgress): string {
  return terminalText(
    `${p.maxIterations > 0 ? `iteration ${p.iteration}/${p.maxIterations}` : 'starting'} · ${p.stepId || '-'} · ${p.phase} · ${p.tokensTotal} tokens · $${p.costUsd.toFixed(4)}${p.lastError ? ` · ${p.lastError.slice(0, 120)}` : ''}`,
  );
}

export function progressKey(p: RunProgress): string {
  return `${p.iteration}|${p.stepId}|${p.phase}|${p.tokensTotal}|${p.lastError ?? ''}|${p.environment?.length ?? 0}|${p.warnings?.at(-1) ?? ''}|${p.waiting?.timedOut ?? p.waiting?.kind ?? ''}`;
}

/** The environment lines not printed yet (they only grow during a run). */
export function newEnvironmentLines(p: RunProgress, printed: number): readonly string[] {
  return (p.environment ?? []).slice(printed).map(terminalText);
}

/**
 * The run's warnings `--follow` has not printed yet (what the validators undid in the
 * worktree, a rejected signal). The run keeps the newest few, so they are told apart by
 * text, not by position: a warning repeated word for word is printed once.
 */
export function newWarningLines(p: RunProgress, printed: Set<string>): readonly string[] {
  const fresh = (p.warnings ?? []).filter((w) => !printed.has(w));
  for (const w of fresh) printed.add(w);
  return fresh.map((w) => `warning: ${terminalLine(w)}`);
}

/**
 * What `--follow` prints when nothing has changed for a while (a setup fetching every
 * dependency on a cold cache, a slow test run inside a step), so a silent terminal never
 * reads as a hung run; undefined where the run is waiting (its waiting line says for what)
 * or over.
 */
export function stillLine(p: RunProgress, elapsedMs: number): string | undefined {
  if (p.waiting !== undefined) return undefined;
  const what = stillDoing(p);
  return what === undefined ? undefined : terminalText(`still ${what} (${elapsed(elapsedMs)} so far)`);
}

function stillDoing(p: RunProgress): string | undefined {
  switch (p.phase) {
    case RunPhase.Loading:
    case RunPhase.Preparing:
      return 'preparing the worktree';
    case RunPhase.Environment:
      // One activity does both (prepare-environment-and-preflight.ts): the phase cannot tell which is running.
      return "preparing the environment: setup installs what the project's commands need (slow on a cold cache), then the checks run once on the base";
    case RunPhase.Preflight:
      return 'running the checks on the base';
    case RunPhase.Flow:
    case RunPhase.Closure:
      return `on step ${p.stepId || '-'}`;
    case RunPhase.Validating:
      return 'running the completion checks';
    case RunPhase.Boundary:
      return 'delivering';
    case RunPhase.BudgetExhausted:
    case RunPhase.WaitingForAnswer:
    case RunPhase.Unanswered:
    case RunPhase.Completed:
    case RunPhase.NoChange:
    case RunPhase.Failed:
    case RunPhase.Cancelled:
      return undefined;
    default: {
      const unknown: never = p.phase;
      return unknown;
    }
  }
}

function elapsed(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export function resultSummary(result: RunResult): string {
  const lines = [
    `outcome: ${result.outcome}${result.code ? ` (${result.code})` : ''}`,
    `reason: ${result.reason}`,
    `iterations: ${result.iterations} · tokens: ${result.usage.inputTokens + result.usage.outputTokens + result.usage.cacheReadTokens + result.usage.cacheWriteTokens} · cost: $${result.costUsd.toFixed(4)}`,
    // A run stopped before it loaded its definition has none to name.
    ...(result.definitionHash === '' ? [] : [`definition: ${result.definitionHash.slice(0, 12)}`]),
  ];
  for (const line of result.environment ?? []) lines.push(`  ${line}`);
  for (const warning of result.warnings ?? []) lines.push(`warning: ${terminalLine(warning)}`);
  if (result.branch) lines.push(`branch: ${result.branch} · worktree: ${result.worktreePath}`);
  if (result.boundary) {
    lines.push(`boundary: ${result.boundary.status}`);
    for (const e of result.boundary.effects) lines.push(`  - ${effectLabel(e.name)}: ${e.status} (${e.detail})`);
    for (const p of result.boundary.pending) lines.push(`  pending: ${p}`);
  }
  for (const s of result.steps)
    lines.push(
      `  #${s.iteration} ${s.stepId} → ${s.intent ?? '-'}${s.next ? ` → ${s.next}` : ''}: ${terminalLine(s.summary.slice(0, 100))}${s.checks ? ` · checks ${s.checks}` : ''}`,
    );
  return terminalText(lines.join('\n'));
}

/** Where the run's worktree is, and whether the run can leave that host (status). */
export function hostLine(host: NonNullable<RunProgress['host']>): string {
  return host.pinned
    ? `host: ${host.taskQueue} (pinned: the run works a local checkout on that machine and waits for it)`
    : `host: ${host.taskQueue} (remote repository: if that host is lost, another worker continues from the last step checkpoint)`;
}
