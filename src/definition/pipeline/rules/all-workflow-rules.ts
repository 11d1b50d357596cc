/** Every workflow.json cross-reference rule, in report order. */
import { agentRefRules } from './agent-ref-rules.js';
import { labelMappingRules, labelSpecRules } from './label-rules.js';
import { phaseRules } from './phase-rules.js';
import { prioritizerRules, unsupportedKeyRules } from './prioritizer-rules.js';
import type { WorkflowRule } from './workflow-rule.js';

export const WORKFLOW_RULES: readonly WorkflowRule[] = [
  phaseRules,
  labelMappingRules,
  labelSpecRules,
  agentRefRules,
  prioritizerRules,
  unsupportedKeyRules,
];
