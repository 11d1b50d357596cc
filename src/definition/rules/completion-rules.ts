/**
 * Completion steps and validators: conditions name known validators (registry or
 * built-in), built-ins have their command configured, validators name known failure
 * patterns and known extractors, and each completion step belongs to a closure step (we
 * pick the completion step by the closure step being run, not by verdict type: upstream
 * bug 2).
 */
import { escapePointerSegment, pointer, problem, warning, type Problem } from '../problem.js';
import type { DefinitionRule } from './rule.js';
import { completionGuardFor } from '../../contracts/completion-guard.js';
import { EXTRACTOR_NAMES, isExtractorName, isUpstreamUnimplementedExtractor } from '../../contracts/extractor-names.js';

export const conditionsUseKnownValidators: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  const { defined, unconfigured, inert } = ctx.validators;
  for (const step of ctx.completionSteps) {
    const raw = ctx.registry.completionSteps?.[step.key] ?? ctx.registry.validationSteps?.[step.key];
    const conditions = raw?.completionConditions ?? raw?.validationConditions ?? [];
    conditions.forEach((condition, index) => {
      const id = condition.validator;
      const at = `${step.conditionsPointer}/${index}/validator`;
      if (defined[id] !== undefined || inert.has(id)) return;
      const configureAt = unconfigured[id];
      if (configureAt !== undefined) {
        problems.push(
          problem({
            code: 'VALIDATOR_COMMAND_NOT_CONFIGURED',
            file: ctx.registryFile,
            pointer: at,
            rule: 'builtin-validator-configured',
            expected: `a command at ${ctx.agentFile}#${configureAt}`,
            message: `built-in validator '${id}' is used but its command is not configured`,
          }),
        );
        return;
      }
      problems.push(
        problem({
          code: 'UNKNOWN_VALIDATOR',
          file: ctx.registryFile,
          pointer: at,
          rule: 'condition-validator-known',
          expected: `a validator declared in validators or a built-in (${Object.keys(defined).join(', ')})`,
          message: `unknown validator '${id}'`,
        }),
      );
    });
  }
  return problems;
};

export const validatorPatternsKnown: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  for (const [id, validator] of Object.entries(ctx.validators.defined)) {
    const pattern = validator.failurePattern;
    const at = ctx.validators.declaredAt[id];
    if (pattern === undefined || at === undefined || ctx.failurePatterns[pattern] !== undefined) continue;
    problems.push(
      problem({
        code: 'UNKNOWN_FAILURE_PATTERN',
        file: ctx.registryFile,
        pointer: `${at}/failurePattern`,
        rule: 'failure-pattern-known',
        expected: `a pattern in failurePatterns or a built-in (${Object.keys(ctx.failurePatterns).join(', ')})`,
        message: `validator '${id}' names unknown failure pattern '${pattern}'`,
      }),
    );
  }
  return problems;
};

/**
 * Every `extractParams` value names an extractor the run has: an unknown name would
 * give the retry prompt `null` for that parameter at run time, so it is an error here
 * (upstream's declared-but-unimplemented names, null upstream too, are a warning).
 */
export const validatorExtractorsKnown: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  for (const [id, raw] of Object.entries(ctx.registry.validators ?? {})) {
    for (const [param, name] of Object.entries(raw.extractParams ?? {})) {
      if (typeof name !== 'string' || isExtractorName(name)) continue;
      const at = `${ctx.validators.declaredAt[id] ?? pointer('validators', id)}${pointer('extractParams', param)}`;
      if (isUpstreamUnimplementedExtractor(name)) {
        problems.push(
          warning({
            code: 'EXTRACTOR_UNIMPLEMENTED',
            file: ctx.registryFile,
            pointer: at,
            rule: 'extractor-known',
            expected: `an extractor among ${EXTRACTOR_NAMES.join(', ')}`,
            message: `validator '${id}' extracts '${param}' with '${name}', which upstream declares but implements nowhere: '${param}' is null in retry prompts, as upstream`,
          }),
        );
        continue;
      }
      problems.push(
        problem({
          code: 'UNKNOWN_EXTRACTOR',
          file: ctx.registryFile,
          pointer: at,
          rule: 'extractor-known',
          expected: `an extractor among ${EXTRACTOR_NAMES.join(', ')}`,
          message: `validator '${id}' extracts '${param}' with unknown extractor '${name}'`,
        }),
      );
    }
  }
  return problems;
};

/**
 * Which completion step guards which closure step is contracts/completion-guard.ts (the
 * run uses the same function): these warnings say what that rule does to this registry.
 */
export const completionStepsMatchClosures: DefinitionRule = (ctx) => {
  const closures = ctx.steps.filter((s) => s.stepKind === 'closure');
  const declared = ctx.completionSteps.map((c) => c.key);
  const problems: Problem[] = [];
  for (const c of ctx.completionSteps) {
    if (closures.some((s) => s.key === c.key)) continue;
    const guarded = closures.filter((s) => completionGuardFor(s.key, declared).kind === 'only').map((s) => s.key);
    problems.push(
      warning({
        code: 'COMPLETION_STEP_UNMATCHED',
        file: ctx.registryFile,
        pointer: c.pointer,
        rule: 'completion-step-for-closure',
        expected: `a closure step with id '${escapePointerSegment(c.key)}'`,
        message:
          guarded.length > 0
            ? `completion step '${c.key}' matches no closure step by id; as the only completion step it guards ${guarded.map((k) => `'${k}'`).join(', ')}`
            : `completion step '${c.key}' matches no closure step, so its conditions never run`,
      }),
    );
  }
  for (const s of closures) {
    if (declared.length === 0 || completionGuardFor(s.key, declared).kind !== 'none') continue;
    problems.push(
      warning({
        code: 'CLOSURE_STEP_UNGUARDED',
        file: ctx.registryFile,
        pointer: s.pointer,
        rule: 'completion-step-for-closure',
        expected: `a completion step with id '${escapePointerSegment(s.key)}'`,
        message: `closure step '${s.key}' has no completion step of its own and the registry declares ${declared.length}, so its closing runs no completion conditions`,
      }),
    );
  }
  return problems;
};
