/**
 * Phases: an actionable phase needs a priority and an agent that exists (WF-PHASE-002,
 * WF-PHASE-003, WF-REF-001); an agent on a terminal or blocking phase is never
 * dispatched (a warning). The phase type itself is the schema's (WF-PHASE-001).
 */
import { pointer, problem, warning, type Problem } from '../../problem.js';
import { WfCode } from '../wf-codes.js';
import type { WorkflowRule } from './workflow-rule.js';

export const phaseRules: WorkflowRule = (view) => {
  const out: Problem[] = [];
  const file = view.file;
  for (const [id, phase] of view.phases) {
    const at = (key: string): string => pointer('phases', id, key);
    if (phase.type === 'actionable') {
      if (phase.agent === undefined || phase.agent === null) {
        out.push(
          problem({
            code: WfCode.PhaseAgentRequired,
            file,
            pointer: at('agent'),
            rule: 'actionable-phase-agent',
            expected: 'the id of an agent in "agents"',
            message: `actionable phase '${id}' must name the agent that works it`,
          }),
        );
      }
      // A priority of the wrong type is the schema's problem at the same pointer (dropped as its echo).
      if (phase.priority === undefined) {
        out.push(
          problem({
            code: WfCode.PhasePriorityRequired,
            file,
            pointer: at('priority'),
            rule: 'actionable-phase-priority',
            expected: 'a number (lower = worked first)',
            message: `actionable phase '${id}' must have a priority`,
          }),
        );
      }
    } else if ((phase.type === 'terminal' || phase.type === 'blocking') && typeof phase.agent === 'string') {
      out.push(
        warning({
          code: WfCode.PhaseAgentIgnored,
          file,
          pointer: at('agent'),
          rule: 'agent-on-final-phase',
          expected: 'no agent on a terminal or blocking phase',
          message: `${phase.type} phase '${id}' names agent '${phase.agent}', which is never dispatched there`,
        }),
      );
    }
    if (typeof phase.agent === 'string' && !view.agents.has(phase.agent) && view.usable.agents) {
      out.push(
        problem({
          code: WfCode.RefUnknownAgent,
          file,
          pointer: at('agent'),
          rule: 'phase-agent-exists',
          expected: `one of the agents: ${list([...view.agents.keys()])}`,
          message: `phase '${id}' names unknown agent '${phase.agent}'`,
        }),
      );
    }
  }
  return out;
};

export function list(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.map((i) => `'${i}'`).join(', ');
}
