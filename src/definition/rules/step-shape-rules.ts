/**
 * Which steps may go without a gate, transitions or schema (upstream SR-GATE-003 and
 * the constructs of its shipped agents):
 *   - `section.*` steps are prompt fragments, never flow steps (set apart at normalise);
 *   - a step with a subprocess `runner` is a closure step and needs none of them;
 *   - when any step has a structuredGate, every other step needs all three;
 *   - an agent without any gate may have ungated closure steps (triager): they close
 *     after one answer. An ungated work/verification step cannot be routed: an error.
 *     Under stepMachine (`detect:graph`) such an agent is an error too: that completion
 *     type is the step machine's own end, reached only through gated transitions
 *     (docs/concepts.md#completion-types), and a gateless agent has no machine.
 * Runner args may only use `${context.<key>}` keys the run context has (agent
 * parameters and `issue`); step `inputs` must read `<stepId>.<key>` of a known step.
 */
import { problem, warning, type Problem } from '../problem.js';
import type { DefinitionRule } from './rule.js';
import { RUNNER_CONTEXT_BUILTINS, contextKeys } from '../../contracts/runner-context.js';
import { CompletionType } from '../../contracts/completion-types.js';

const FLOW_PARTS = ['structuredGate', 'transitions', 'outputSchemaRef'] as const;

export const flowStepsComplete: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  const anyGated = ctx.steps.some((s) => s.raw.structuredGate !== undefined);
  for (const step of ctx.steps) {
    if (step.raw.runner !== undefined) continue;
    const missing = FLOW_PARTS.filter((part) => step.raw[part] === undefined);
    if (missing.length === 0) continue;
    if (anyGated) {
      problems.push(
        problem({
          code: 'FLOW_STEP_INCOMPLETE',
          file: ctx.registryFile,
          pointer: step.pointer,
          rule: 'flow-steps-complete',
          expected: `${missing.join(', ')} (every step of a gated flow has them; prompt fragments are named section.*)`,
          message: `step '${step.key}' lacks ${missing.join(', ')}`,
        }),
      );
    } else if (step.raw.structuredGate === undefined && step.stepKind !== undefined && step.stepKind !== 'closure') {
      problems.push(
        problem({
          code: 'UNGATED_FLOW_STEP',
          file: ctx.registryFile,
          pointer: `${step.pointer}/structuredGate`,
          rule: 'ungated-steps-close',
          expected: 'a structuredGate, or stepKind closure (an ungated closure step closes after one answer)',
          message: `${step.stepKind} step '${step.key}' has no structuredGate: unsupported, it could never be routed`,
        }),
      );
    }
  }
  return problems;
};

export const stepMachineGated: DefinitionRule = (ctx) => {
  if (ctx.settings.verdict.type !== CompletionType.StepMachine) return [];
  // No steps at all is a shape error of its own (REGISTRY_SCHEMA): not repeated here.
  if (ctx.steps.length === 0 || ctx.steps.some((s) => s.raw.structuredGate !== undefined)) return [];
  const declared = ctx.agent.runner.verdict?.type ?? CompletionType.StepMachine;
  return [
    problem({
      code: 'STEP_MACHINE_WITHOUT_GATE',
      file: ctx.agentFile,
      pointer: '/runner/verdict/type',
      rule: 'step-machine-gated',
      expected: `a structuredGate on the flow steps of ${ctx.registryFile}, or another completion type (e.g. count:iteration for ungated closure steps)`,
      message: `completion type '${declared}' (stepMachine) needs a step machine, but no step of ${ctx.registryFile} has a structuredGate`,
    }),
  ];
};

export const runnerStepsValid: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  const known = new Set([...Object.keys(ctx.settings.parameters), ...RUNNER_CONTEXT_BUILTINS]);
  for (const step of ctx.steps) {
    const runner = step.raw.runner;
    if (runner === undefined) continue;
    if (step.stepKind !== 'closure') {
      problems.push(
        problem({
          code: 'RUNNER_NOT_CLOSURE',
          file: ctx.registryFile,
          pointer: `${step.pointer}/runner`,
          rule: 'runner-on-closure',
          expected: 'stepKind closure (a subprocess runner replaces the closure prompt)',
          message: `step '${step.key}' has a runner but is a ${step.stepKind ?? 'kind-less'} step`,
        }),
      );
    }
    (runner.args ?? []).forEach((arg, index) => {
      for (const key of contextKeys(arg).filter((k) => !known.has(k))) {
        problems.push(
          problem({
            code: 'RUNNER_CONTEXT_UNKNOWN',
            file: ctx.registryFile,
            pointer: `${step.pointer}/runner/args/${index}`,
            rule: 'runner-context-known',
            expected: `a key among ${[...known].join(', ')}`,
            message: `\${context.${key}} in the runner of step '${step.key}' is not a parameter of the agent`,
          }),
        );
      }
    });
  }
  return problems;
};

export const inputsReadKnownSteps: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  const byId = new Map(ctx.steps.map((s) => [s.key, s]));
  for (const step of ctx.steps) {
    for (const [name, spec] of Object.entries(step.definition.inputs ?? {})) {
      if (spec.from === undefined) continue;
      const at = `${step.pointer}/inputs/${name}/from`;
      const dot = spec.from.lastIndexOf('.');
      const source = dot > 0 ? byId.get(spec.from.slice(0, dot)) : undefined;
      const key = spec.from.slice(dot + 1);
      if (source === undefined) {
        problems.push(
          problem({
            code: 'INPUT_SOURCE_UNKNOWN',
            file: ctx.registryFile,
            pointer: at,
            rule: 'inputs-from-known-step',
            expected: "'<stepId>.<key>' naming a step of the registry",
            message: `input '${name}' of step '${step.key}' reads '${spec.from}': no such step`,
          }),
        );
        continue;
      }
      const handed = source.definition.structuredGate.handoffFields.map((f) => f.split('.').pop());
      if (!handed.includes(key)) {
        problems.push(
          warning({
            code: 'INPUT_NOT_HANDED_OFF',
            file: ctx.registryFile,
            pointer: at,
            rule: 'inputs-match-handoff',
            expected: `a key among the handoffFields of '${source.key}' (${handed.join(', ') || 'none'})`,
            message: `input '${name}' of step '${step.key}' reads '${key}', which '${source.key}' does not hand off (its default applies)`,
          }),
        );
      }
    }
  }
  return problems;
};
