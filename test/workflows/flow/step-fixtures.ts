/** Minimal StepDefinitions and AgentDefinitions for the pure Flow unit tests. */
import type { AgentDefinition, StepDefinition, StructuredGate } from '../../../src/contracts/definition.js';
import type { StepKind } from '../../../src/contracts/intents.js';

export function makeStep(
  stepId: string,
  stepKind: StepKind,
  transitions: StepDefinition['transitions'] = {},
  gate: Partial<StructuredGate> = {},
): StepDefinition {
  const [c2 = 'initial', c3 = 'x'] = stepId.split('.');
  return {
    stepId,
    name: stepId,
    stepKind,
    c2,
    c3,
    edition: 'default',
    uvVariables: [],
    outputSchemaRef: { file: 'flow.schema.json', schema: stepId },
    structuredGate: {
      allowedIntents: stepKind === 'closure' ? ['closing', 'repeat'] : ['next', 'repeat', 'jump', 'handoff'],
      intentField: 'next_action.action',
      intentSchemaRef: '#/properties/next_action/properties/action',
      handoffFields: [],
      failFast: true,
      ...gate,
    } as StructuredGate,
    transitions,
    readOnly: false,
  };
}

export function makeDefinition(
  steps: readonly StepDefinition[],
  verdictConfig: Record<string, number> = {},
): AgentDefinition {
  return {
    steps: Object.fromEntries(steps.map((s) => [s.stepId, s])),
    verdict: { type: 'iterationBudget', config: verdictConfig },
  } as unknown as AgentDefinition;
}
