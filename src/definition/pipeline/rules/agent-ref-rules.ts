/**
 * Agents: every phase an agent names exists (WF-REF-002 fallbackPhase, WF-REF-003
 * outputPhase, WF-REF-004 outputPhases, WF-REF-007 fallbackPhases — upstream never
 * checked the last); a transformer has an outputPhase and a validator its
 * outputPhases; closeCondition needs closeOnComplete (WF-REF-005) and, on a validator,
 * is one of its verdicts (WF-REF-006); an agent no phase dispatches is a warning.
 */
import { pointer, problem, warning, type Problem } from '../../problem.js';
import { WfCode } from '../wf-codes.js';
import type { AgentView } from '../workflow-view.js';
import { list } from './phase-rules.js';
import type { WorkflowRule } from './workflow-rule.js';

export const agentRefRules: WorkflowRule = (view) => {
  const out: Problem[] = [];
  const file = view.file;
  const phases = [...view.phases.keys()];
  const expectedPhase = `one of the phases: ${list(phases)}`;
  const unknown = (code: string, segments: string[], what: string, phase: string): void => {
    if (view.phases.has(phase) || !view.usable.phases) return;
    out.push(
      problem({
        code,
        file,
        pointer: pointer(...segments),
        rule: 'agent-phase-exists',
        expected: expectedPhase,
        message: `${what} names unknown phase '${phase}'`,
      }),
    );
  };
  for (const [id, a] of view.agents) {
    const at = (...rest: string[]): string[] => ['agents', id, ...rest];
    if (a.fallbackPhase !== undefined)
      unknown(WfCode.RefUnknownFallbackPhase, at('fallbackPhase'), `agent '${id}' fallbackPhase`, a.fallbackPhase);
    if (a.role === 'transformer') {
      if (a.outputPhase === undefined) out.push(missing(file, at('outputPhase'), WfCode.RefUnknownOutputPhase, id, a));
      else unknown(WfCode.RefUnknownOutputPhase, at('outputPhase'), `transformer '${id}' outputPhase`, a.outputPhase);
      for (const [outcome, phase] of a.fallbackPhases ?? [])
        unknown(
          WfCode.RefUnknownFallbackPhasesEntry,
          at('fallbackPhases', outcome),
          `fallbackPhases['${outcome}'] of '${id}'`,
          phase,
        );
    }
    if (a.role === 'validator') {
      if (a.outputPhases === undefined)
        out.push(missing(file, at('outputPhases'), WfCode.RefUnknownOutputPhasesEntry, id, a));
      for (const [verdict, phase] of a.outputPhases ?? [])
        unknown(
          WfCode.RefUnknownOutputPhasesEntry,
          at('outputPhases', verdict),
          `outputPhases['${verdict}'] of '${id}'`,
          phase,
        );
    }
    out.push(...closeConditionProblems(file, id, a));
  }
  const dispatched = new Set([...view.phases.values()].map((p) => (p.type === 'actionable' ? p.agent : undefined)));
  for (const id of view.agents.keys()) {
    if (!view.usable.phases || dispatched.has(id) || view.prioritizer?.agent === id) continue;
    out.push(
      warning({
        code: WfCode.RefAgentUnused,
        file,
        pointer: pointer('agents', id),
        rule: 'agent-dispatched',
        expected: 'an actionable phase whose agent is this one',
        message: `agent '${id}' is never dispatched: no actionable phase names it`,
      }),
    );
  }
  return out;
};

function missing(file: string, segments: string[], code: string, id: string, a: AgentView): Problem {
  const key = segments[segments.length - 1]!;
  return problem({
    code,
    file,
    pointer: pointer(...segments),
    rule: 'agent-role-output',
    expected: key === 'outputPhase' ? 'the phase a success moves the issue to' : '{ "<verdict>": "<phase>" }',
    message: `${a.role} '${id}' has no ${key}`,
  });
}

function closeConditionProblems(file: string, id: string, a: AgentView): Problem[] {
  if (a.closeCondition === undefined) return [];
  const at = pointer('agents', id, 'closeCondition');
  if (a.closeOnComplete !== true) {
    return [
      problem({
        code: WfCode.RefCloseConditionWithoutClose,
        file,
        pointer: at,
        rule: 'close-condition-needs-close',
        expected: '"closeOnComplete": true beside it (or no closeCondition)',
        message: `agent '${id}' has closeCondition '${a.closeCondition}' but closeOnComplete is not true`,
      }),
    ];
  }
  if (a.role === 'validator' && a.outputPhases !== undefined && !a.outputPhases.has(a.closeCondition)) {
    return [
      problem({
        code: WfCode.RefInvalidCloseCondition,
        file,
        pointer: at,
        rule: 'close-condition-is-verdict',
        expected: `one of the outputPhases keys: ${list([...a.outputPhases.keys()])}`,
        message: `closeCondition '${a.closeCondition}' of validator '${id}' is not one of its verdicts`,
      }),
    ];
  }
  return [];
}
