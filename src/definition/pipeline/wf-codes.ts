/**
 * Problem codes of a workflow.json: upstream's WF-* codes where upstream has the check
 * (same number, same meaning), new numbers after them for the checks upstream lacks.
 * docs/pipelines.md lists them all.
 */
export const WfCode = {
  /** The file does not exist. */
  LoadNotFound: 'WF-LOAD-001',
  /** The file cannot be read. */
  LoadReadFailed: 'WF-LOAD-002',
  /** The file is not JSON. */
  LoadInvalidJson: 'WF-LOAD-003',
  SchemaVersion: 'WF-SCHEMA-001',
  SchemaPhases: 'WF-SCHEMA-002',
  SchemaLabelMapping: 'WF-SCHEMA-003',
  SchemaAgents: 'WF-SCHEMA-004',
  /** Any other shape problem (unknown key, wrong type, …). New. */
  SchemaShape: 'WF-SCHEMA-005',
  PhaseInvalidType: 'WF-PHASE-001',
  PhaseAgentRequired: 'WF-PHASE-002',
  PhasePriorityRequired: 'WF-PHASE-003',
  /** Warning: a terminal/blocking phase names an agent that is never dispatched. New. */
  PhaseAgentIgnored: 'WF-PHASE-004',
  LabelMappingEmpty: 'WF-LABEL-001',
  LabelUnknownPhase: 'WF-LABEL-002',
  LabelSpecMissing: 'WF-LABEL-003',
  LabelSpecOrphan: 'WF-LABEL-004',
  LabelSpecInvalidColor: 'WF-LABEL-005',
  /** A phase an agent can move the issue to has no label mapping to it. New. */
  LabelTargetUnmapped: 'WF-LABEL-006',
  RuleMaxCycles: 'WF-RULE-001',
  RuleCycleDelay: 'WF-RULE-002',
  /** maxConsecutivePhases must be an integer ≥ 0. New (upstream only had it in the schema). */
  RuleMaxConsecutive: 'WF-RULE-003',
  RefUnknownAgent: 'WF-REF-001',
  RefUnknownFallbackPhase: 'WF-REF-002',
  /** Also: a transformer without outputPhase. */
  RefUnknownOutputPhase: 'WF-REF-003',
  /** Also: a validator without outputPhases. */
  RefUnknownOutputPhasesEntry: 'WF-REF-004',
  RefCloseConditionWithoutClose: 'WF-REF-005',
  RefInvalidCloseCondition: 'WF-REF-006',
  /** A transformer's fallbackPhases entry names an unknown phase. New (upstream never checked it). */
  RefUnknownFallbackPhasesEntry: 'WF-REF-007',
  /** prioritizer.agent is neither a declared agent nor an agent directory. New. */
  RefUnknownPrioritizerAgent: 'WF-REF-008',
  /** prioritizer.defaultLabel is not one of prioritizer.labels. New. */
  RefPrioritizerDefaultLabel: 'WF-REF-009',
  /** Warning: a declared agent no actionable phase dispatches. New. */
  RefAgentUnused: 'WF-REF-010',
  /** The agent directory does not exist (or leaves the workflow's directory). New. */
  AgentDirMissing: 'WF-AGENT-001',
  /** Warning: an upstream key we accept and do not act on. New. */
  Unsupported: 'WF-UNSUPPORTED-001',
} as const;
export type WfCode = (typeof WfCode)[keyof typeof WfCode];
