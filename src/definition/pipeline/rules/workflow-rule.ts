/**
 * A workflow.json cross-reference rule: a pure function over the lenient view that
 * returns every problem it finds (never throws, never stops at the first).
 */
import type { Problem } from '../../problem.js';
import type { WorkflowView } from '../workflow-view.js';

export type WorkflowRule = (view: WorkflowView) => Problem[];

/** The phase ids an agent can move an issue to, each with the pointer that names it. */
export function agentTargets(view: WorkflowView): { agent: string; phase: string; pointer: string[] }[] {
  const out: { agent: string; phase: string; pointer: string[] }[] = [];
  for (const [id, a] of view.agents) {
    if (a.fallbackPhase !== undefined)
      out.push({ agent: id, phase: a.fallbackPhase, pointer: ['agents', id, 'fallbackPhase'] });
    if (a.role === 'transformer') {
      if (a.outputPhase !== undefined)
        out.push({ agent: id, phase: a.outputPhase, pointer: ['agents', id, 'outputPhase'] });
      for (const [k, phase] of a.fallbackPhases ?? [])
        out.push({ agent: id, phase, pointer: ['agents', id, 'fallbackPhases', k] });
    }
    if (a.role === 'validator') {
      for (const [k, phase] of a.outputPhases ?? [])
        out.push({ agent: id, phase, pointer: ['agents', id, 'outputPhases', k] });
    }
  }
  return out;
}
