/**
 * The comment left on an issue when the agent closes it: the run's summary and the
 * validator evidence that allowed the close, so a reader sees why it was closed.
 */
import type { ConditionResult } from '../../contracts/activities.js';

export function closingComment(options: {
  workflowId: string;
  branch: string;
  summary: string;
  evidence: readonly ConditionResult[];
}): string {
  const lines = [
    `Closed by run \`${options.workflowId}\` (branch \`${options.branch}\`).`,
    '',
    options.summary.trim() || '(no summary)',
  ];
  if (options.evidence.length > 0) {
    lines.push('', 'Completion checks:');
    for (const r of options.evidence)
      lines.push(`- ${r.passed ? 'passed' : 'FAILED'} \`${r.validator}\`: ${r.summary.split('\n')[0] ?? ''}`);
  }
  return lines.join('\n');
}
