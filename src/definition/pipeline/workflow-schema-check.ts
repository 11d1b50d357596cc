/**
 * The JSON-Schema check of workflow.json. Every structural problem is reported at once
 * (allErrors); each is re-coded with upstream's WF-* code where upstream has one for
 * that place (a missing `version` is WF-SCHEMA-001, a bad phase type WF-PHASE-001, a
 * bad colour WF-LABEL-005, …); the rest are WF-SCHEMA-005.
 */
import { checkAgainstSchema, type SchemaCheck } from '../file-schemas/config-schema-check.js';
import { strictSchema } from '../schema/lazy-ajv.js';
import type { Problem } from '../problem.js';
import { WfCode } from './wf-codes.js';
import { WORKFLOW_FILE_SCHEMA, type RawWorkflowFile } from './workflow-file-schema.js';

const validateWorkflow = strictSchema<RawWorkflowFile>(WORKFLOW_FILE_SCHEMA);

export function checkWorkflowFile(value: unknown, file: string): SchemaCheck<RawWorkflowFile> {
  const checked = checkAgainstSchema(validateWorkflow(), value, file, WfCode.SchemaShape);
  if (checked.ok) return checked;
  return { ok: false, problems: checked.problems.map((p) => ({ ...p, code: wfCodeFor(p) })) };
}

const TOP_LEVEL: Readonly<Record<string, WfCode>> = {
  '/version': WfCode.SchemaVersion,
  '/phases': WfCode.SchemaPhases,
  '/labelMapping': WfCode.SchemaLabelMapping,
  '/agents': WfCode.SchemaAgents,
};

/** The WF-* code for a schema problem, by where it is and which keyword failed. */
function wfCodeFor(p: Problem): string {
  const keyword = p.rule.replace(/^schema:/, '');
  const top = TOP_LEVEL[p.pointer];
  if (top !== undefined && (keyword === 'required' || keyword === 'type')) return top;
  if (p.pointer === '/labelMapping' && keyword === 'minProperties') return WfCode.LabelMappingEmpty;
  if (/^\/phases\/[^/]+\/type$/.test(p.pointer) && keyword === 'enum') return WfCode.PhaseInvalidType;
  if (/^\/labels\/[^/]+\/color$/.test(p.pointer) && keyword === 'pattern') return WfCode.LabelSpecInvalidColor;
  if (p.pointer === '/rules/maxCycles') return WfCode.RuleMaxCycles;
  if (p.pointer === '/rules/cycleDelayMs') return WfCode.RuleCycleDelay;
  if (p.pointer === '/rules/maxConsecutivePhases') return WfCode.RuleMaxConsecutive;
  return p.code;
}
