/** One line of live progress, and the end-of-run summary. */
import type { RunProgress, RunResult } from '../contracts/run.js';

export { waitingLine } from '../contracts/human-loop.js';

export function progressLine(p: RunProgress): string {
  return `iteration ${p.iteration}/${p.maxIterations} · ${p.stepId || '-'} · ${p.phase} · ${p.tokensTotal} tokens · $${p.costUsd.toFixed(4)}${p.lastError ? ` · ${p.lastError.slice(0, 120)}` : ''}`;
}

export function progressKey(p: RunProgress): string {
  return `${p.iteration}|${p.stepId}|${p.phase}|${p.tokensTotal}|${p.lastError ?? ''}|${p.environment?.length ?? 0}|${p.waiting?.timedOut ?? p.waiting?.kind ?? ''}`;
}

/** The environment lines not printed yet (they only grow during a run). */
export function newEnvironmentLines(p: RunProgress, printed: number): readonly string[] {
  return (p.environment ?? []).slice(printed);
}

export function resultSummary(result: RunResult): string {
  const lines = [
    `outcome: ${result.outcome}${result.code ? ` (${result.code})` : ''}`,
    `reason: ${result.reason}`,
    `iterations: ${result.iterations} · tokens: ${result.usage.inputTokens + result.usage.outputTokens + result.usage.cacheReadTokens + result.usage.cacheWriteTokens} · cost: $${result.costUsd.toFixed(4)}`,
    `definition: ${result.definitionHash.slice(0, 12)}`,
  ];
  for (const line of result.environment ?? []) lines.push(`  ${line}`);
  if (result.branch) lines.push(`branch: ${result.branch} · worktree: ${result.worktreePath}`);
  if (result.boundary) {
    lines.push(`boundary: ${result.boundary.status}`);
    for (const e of result.boundary.effects) lines.push(`  - ${e.name}: ${e.status} (${e.detail})`);
    for (const p of result.boundary.pending) lines.push(`  pending: ${p}`);
  }
  for (const s of result.steps)
    lines.push(
      `  #${s.iteration} ${s.stepId} → ${s.intent ?? '-'}${s.next ? ` → ${s.next}` : ''}: ${s.summary.slice(0, 100)}`,
    );
  return lines.join('\n');
}

/** Where the run's worktree is, and whether the run can leave that host (status). */
export function hostLine(host: NonNullable<RunProgress['host']>): string {
  return host.pinned
    ? `host: ${host.taskQueue} (pinned: the run works a local checkout on that machine and waits for it)`
    : `host: ${host.taskQueue} (remote repository: if that host is lost, another worker continues from the last step checkpoint)`;
}
