/**
 * PipelineDefinition objects for the pipeline tests, built directly (the workflow.json
 * loader lives in src/definition/pipeline/; these tests do not depend on it): the
 * upstream example consider → detail → implement → review, with a blocking phase.
 */
import type { PipelineAgent, PipelineDefinition } from '../../../src/contracts/pipeline.js';

export function transformer(
  id: string,
  outputPhase: string,
  extra: Partial<Extract<PipelineAgent, { role: 'transformer' }>> = {},
): PipelineAgent {
  return {
    id,
    role: 'transformer',
    agentDir: `/agents/${id}`,
    outputPhase,
    fallbackPhases: {},
    fallbackPhase: 'blocked',
    closeOnComplete: false,
    ...extra,
  };
}

export function validator(
  id: string,
  outputPhases: Record<string, string>,
  extra: Partial<Extract<PipelineAgent, { role: 'validator' }>> = {},
): PipelineAgent {
  return { id, role: 'validator', agentDir: `/agents/${id}`, outputPhases, closeOnComplete: false, ...extra };
}

export function pipelineDefinition(overrides: Partial<PipelineDefinition> = {}): PipelineDefinition {
  return {
    path: '/repo/.agent/workflow.json',
    id: 'default',
    version: '1.0.0',
    phases: [
      { id: 'consider', type: 'actionable', priority: 1, agent: 'considerer' },
      { id: 'detail', type: 'actionable', priority: 2, agent: 'detailer' },
      { id: 'implement', type: 'actionable', priority: 3, agent: 'implementer' },
      { id: 'review', type: 'actionable', priority: 4, agent: 'reviewer' },
      { id: 'done', type: 'terminal' },
      { id: 'blocked', type: 'blocking' },
    ],
    labelMapping: [
      ['kind:consider', 'consider'],
      ['kind:detail', 'detail'],
      ['kind:impl', 'implement'],
      ['kind:review', 'review'],
      ['done', 'done'],
      ['finished', 'done'],
      ['need clearance', 'blocked'],
    ],
    labels: {},
    agents: [
      transformer('considerer', 'done', { fallbackPhases: { 'handoff-detail': 'detail' } }),
      transformer('detailer', 'implement', { fallbackPhases: { 'handoff-impl': 'implement' } }),
      transformer('implementer', 'review'),
      validator(
        'reviewer',
        { approved: 'done', rejected: 'implement' },
        { closeOnComplete: true, closeCondition: 'approved' },
      ),
    ],
    rules: { maxCycles: 5, cycleDelayMs: 0, maxConsecutivePhases: 0 },
    commentTemplates: {
      considererHandoffDetail: 'Considered #{issue}: {summary}',
      detailerHandoffImpl: 'Detailed: {plan} ({unknown})',
    },
    prioritizer: { agent: 'triager', agentDir: '/repo/.agent/triager', labels: ['P1', 'P2', 'P3'], defaultLabel: 'P2' },
    hash: 'test',
    ...overrides,
  };
}
