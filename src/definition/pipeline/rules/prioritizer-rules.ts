/**
 * The prioritizer's defaultLabel is one of its labels (WF-REF-009, new), and upstream
 * keys we accept without acting on them earn a warning (WF-UNSUPPORTED-001): declarative
 * `handoffs` and `payloadSchema` (never wired in upstream's CLI), `subjectStore` (state
 * lives in workflow history here) and the rate-limit rules (the model client's rate
 * governor paces requests). Whether the prioritizer agent exists is checked with the
 * agent directories (pipeline-agents.ts).
 */
import { pointer, problem, warning, type Problem } from '../../problem.js';
import { WfCode } from '../wf-codes.js';
import { asObject } from '../workflow-view.js';
import { list } from './phase-rules.js';
import type { WorkflowRule } from './workflow-rule.js';

export const prioritizerRules: WorkflowRule = (view) => {
  const p = view.prioritizer;
  if (p?.defaultLabel === undefined || p.labels.includes(p.defaultLabel)) return [];
  return [
    problem({
      code: WfCode.RefPrioritizerDefaultLabel,
      file: view.file,
      pointer: pointer('prioritizer', 'defaultLabel'),
      rule: 'default-priority-label',
      expected: `one of prioritizer.labels: ${list(p.labels)}`,
      message: `prioritizer.defaultLabel '${p.defaultLabel}' is not one of its labels`,
    }),
  ];
};

const IGNORED: readonly { path: string[]; why: string }[] = [
  { path: ['handoffs'], why: 'declarative artefact handoffs are not supported (upstream never wired them in its CLI)' },
  { path: ['payloadSchema'], why: 'subject payloads are not supported' },
  { path: ['subjectStore'], why: 'pipeline state lives in Temporal workflow history, not in a subject store' },
  { path: ['rules', 'rateLimitThreshold'], why: "the model client's rate governor paces requests" },
  { path: ['rules', 'rateLimitPollIntervalMs'], why: "the model client's rate governor paces requests" },
];

export const unsupportedKeyRules: WorkflowRule = (view) => {
  const out: Problem[] = [];
  for (const { path, why } of IGNORED) {
    const parent = path.length === 1 ? view.raw : asObject(view.raw[path[0]!]);
    if (parent === undefined || !(path[path.length - 1]! in parent)) continue;
    out.push(
      warning({
        code: WfCode.Unsupported,
        file: view.file,
        pointer: pointer(...path),
        rule: 'supported-key',
        expected: 'no such key (it is ignored)',
        message: `'${path.join('.')}' is ignored: ${why}`,
      }),
    );
  }
  return out;
};
