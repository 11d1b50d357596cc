/**
 * Labels: every labelMapping value is a phase (WF-LABEL-002); every phase an agent can
 * send an issue to has a label mapping to it, or the transition could not be written
 * on the issue (WF-LABEL-006, new); when `labels` is declared it covers exactly the
 * labelMapping keys and the prioritizer labels (WF-LABEL-003 missing, WF-LABEL-004
 * orphan). Colours and an empty mapping are the schema's (WF-LABEL-005, WF-LABEL-001).
 */
import { pointer, problem, type Problem } from '../../problem.js';
import { WfCode } from '../wf-codes.js';
import { list } from './phase-rules.js';
import { agentTargets, type WorkflowRule } from './workflow-rule.js';

export const labelMappingRules: WorkflowRule = (view) => {
  if (!view.usable.phases || !view.usable.labelMapping) return [];
  const out: Problem[] = [];
  for (const [label, phase] of view.labelMapping) {
    if (view.phases.has(phase)) continue;
    out.push(
      problem({
        code: WfCode.LabelUnknownPhase,
        file: view.file,
        pointer: pointer('labelMapping', label),
        rule: 'label-maps-to-phase',
        expected: `one of the phases: ${list([...view.phases.keys()])}`,
        message: `label '${label}' maps to unknown phase '${phase}'`,
      }),
    );
  }
  const mapped = new Set(view.labelMapping.values());
  for (const target of agentTargets(view)) {
    if (!view.phases.has(target.phase) || mapped.has(target.phase)) continue;
    out.push(
      problem({
        code: WfCode.LabelTargetUnmapped,
        file: view.file,
        pointer: pointer(...target.pointer),
        rule: 'target-phase-has-label',
        expected: `a labelMapping entry whose value is '${target.phase}'`,
        message: `agent '${target.agent}' can move an issue to phase '${target.phase}', but no label maps to it`,
      }),
    );
  }
  return out;
};

export const labelSpecRules: WorkflowRule = (view) => {
  if (view.labels === undefined || !view.usable.labelMapping) return [];
  const required = new Set([...view.labelMapping.keys(), ...(view.prioritizer?.labels ?? [])]);
  const out: Problem[] = [];
  for (const label of required) {
    if (view.labels.has(label)) continue;
    out.push(
      problem({
        code: WfCode.LabelSpecMissing,
        file: view.file,
        pointer: pointer('labels', label),
        rule: 'label-spec-complete',
        expected: '{ "color": "<6 hex digits>", "description": "<text>" }',
        message: `label '${label}' (used by ${view.labelMapping.has(label) ? 'labelMapping' : 'prioritizer.labels'}) has no spec in "labels"`,
      }),
    );
  }
  for (const label of view.labels.keys()) {
    if (required.has(label)) continue;
    out.push(
      problem({
        code: WfCode.LabelSpecOrphan,
        file: view.file,
        pointer: pointer('labels', label),
        rule: 'label-spec-used',
        expected: 'a label used by labelMapping or prioritizer.labels',
        message: `label spec '${label}' is used by neither labelMapping nor prioritizer.labels`,
      }),
    );
  }
  return out;
};
