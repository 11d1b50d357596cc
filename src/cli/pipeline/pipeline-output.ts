/**
 * What start-pipeline prints: one progress line per issue when its phase, cycle, agent
 * or status changes, and the result table at the end. Phases and agents come from the
 * repository's workflow.json, outcomes and reasons from the runs: both are shown through
 * terminalText (a cell before the columns are measured), never raw on the terminal.
 */
import type { PipelineProgress, PipelineResult } from '../../contracts/pipeline-run.js';
import { terminalLine } from '../../host/terminal-text.js';

const time = (): string => new Date().toISOString().slice(11, 19);

export function progressKey(p: PipelineProgress): string {
  return [p.status, p.paused, p.phase, p.cycle, p.agent, p.childWorkflowId, p.lastOutcome].join('|');
}

export function progressLine(p: PipelineProgress): string {
  const where = `cycle ${p.cycle}/${p.maxCycles} · phase ${p.phase ?? '-'}`;
  const who = p.childWorkflowId ? ` · running ${p.agent} (${p.childWorkflowId})` : '';
  const last = p.lastOutcome ? ` · last outcome ${p.lastOutcome}` : '';
  const state = p.status === 'running' ? (p.paused ? ' · paused' : '') : ` · ${p.status}`;
  return terminalLine(`${time()} #${p.issue} ${where}${who}${last}${state}`);
}

export function pathOf(result: PipelineResult): string {
  if (result.history.length === 0) return result.finalPhase ?? '-';
  return [result.history[0]!.from, ...result.history.map((t) => `${t.to}(${t.agent}:${t.outcome})`)].join(' → ');
}

export function pipelineTable(results: readonly PipelineResult[]): string {
  const rows = results.map((r) =>
    [
      `#${r.issue}`,
      r.status,
      r.finalPhase ?? '-',
      String(r.cycleCount),
      r.issueClosed ? 'yes' : 'no',
      pathOf(r).slice(0, 120),
      r.reason.replace(/\s+/g, ' ').slice(0, 100),
    ].map(terminalLine),
  );
  const header = ['issue', 'status', 'phase', 'cycles', 'closed', 'path', 'reason'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const completed = results.filter((r) => r.status === 'completed').length;
  return [line(header), ...rows.map(line), '', `${completed} of ${results.length} pipeline(s) completed`].join('\n');
}
