/**
 * Registry completion machinery → definitions: validators (built-ins overridden by
 * registry entries), failure patterns, and completion steps from either vocabulary
 * (`completionSteps`/`completionConditions`/`onFail {retry}` or
 * `validationSteps`/`validationConditions`/`onFailure {action}`), with onFail
 * normalised to `{action, maxAttempts}` (default retry, 3).
 */
import type {
  ConditionRef,
  FailAction,
  FailurePatternDefinition,
  ValidatorDefinition,
} from '../../contracts/definition.js';
import { builtinValidators } from './builtin-validators.js';
import { normaliseFailurePatterns } from './normalise-failure-patterns.js';
import type { DraftCompletionStep, KnownValidators } from '../load/load-context.js';
import { pointer, problem, warning, type Problem } from '../problem.js';
import type { RawCompletionStep, RawRegistryFile, RawValidationCommands, RawValidator } from '../load/raw-files.js';

export const DEFAULT_MAX_ATTEMPTS = 3;
/** Retry prompts live under `<c1>/retry/...` (the seed layout's `steps/retry/*`, docs/registry-reference.md). */
export const DEFAULT_RETRY_C2 = 'retry';

const SUCCESS_WHEN = /^(empty|exitCode:-?\d+|contains:.+|matches:.+)$/;

export interface CompletionParts {
  readonly validators: KnownValidators;
  readonly failurePatterns: Record<string, FailurePatternDefinition>;
  readonly completionSteps: DraftCompletionStep[];
  readonly problems: Problem[];
}

export function normaliseCompletion(
  registry: RawRegistryFile,
  commands: RawValidationCommands,
  file: string,
): CompletionParts {
  const problems: Problem[] = [];
  const builtins = builtinValidators(commands);
  const defined: Record<string, ValidatorDefinition> = { ...builtins.defined };
  const unconfigured: Record<string, string> = { ...builtins.unconfigured };
  const inert = new Set<string>();
  const declaredAt: Record<string, string> = {};
  for (const [id, raw] of Object.entries(registry.validators ?? {})) {
    const at = pointer('validators', id);
    declaredAt[id] = at;
    delete unconfigured[id];
    const result = toValidator(id, raw, at, file);
    problems.push(...result.problems);
    if (result.definition) defined[id] = result.definition;
    else if (result.inert) inert.add(id);
  }
  const failurePatterns = normaliseFailurePatterns(registry, file, problems);
  const completionSteps: DraftCompletionStep[] = [];
  for (const group of ['completionSteps', 'validationSteps'] as const) {
    for (const [key, raw] of Object.entries(registry[group] ?? {})) {
      const at = pointer(group, key);
      if (group === 'validationSteps' && registry.completionSteps?.[key] !== undefined) {
        problems.push(
          conflict(file, at, `completion step '${key}' is declared in both completionSteps and validationSteps`),
        );
        continue;
      }
      completionSteps.push(toCompletionStep(key, raw, at, file, problems, inert));
    }
  }
  return { validators: { defined, unconfigured, inert, declaredAt }, failurePatterns, completionSteps, problems };
}

function toValidator(
  id: string,
  raw: RawValidator,
  at: string,
  file: string,
): { definition?: ValidatorDefinition; inert?: boolean; problems: Problem[] } {
  const command = raw.command;
  if (raw.type === 'file') {
    const paths = [...(raw.paths ?? []), ...(raw.path === undefined ? [] : [raw.path])];
    if (paths.length === 0)
      return { problems: [incomplete(file, `${at}/paths`, `file validator '${id}' has no path`, 'path or paths')] };
    return {
      definition: { type: 'file', paths, ...(raw.failurePattern ? { failurePattern: raw.failurePattern } : {}) },
      problems: [],
    };
  }
  if (raw.type === 'semantic' || (raw.type === 'custom' && command === undefined)) {
    // Upstream treats these as passing; they have no runtime effect here either.
    return {
      inert: true,
      problems: [
        warning({
          code: 'VALIDATOR_UNSUPPORTED',
          file,
          pointer: `${at}/type`,
          rule: 'validator-supported',
          expected: 'a command or file validator',
          message: `validator '${id}' (${raw.type}) has no effect and is skipped`,
        }),
      ],
    };
  }
  if (command === undefined)
    return { problems: [incomplete(file, `${at}/command`, `command validator '${id}' has no command`, 'a command')] };
  const successWhen = raw.successWhen ?? (raw.type === 'custom' ? 'exitCode:0' : undefined);
  if (successWhen === undefined)
    return {
      problems: [
        incomplete(
          file,
          `${at}/successWhen`,
          `command validator '${id}' has no successWhen`,
          "'empty', 'exitCode:N', 'contains:S' or 'matches:RE'",
        ),
      ],
    };
  const problems = checkSuccessWhen(successWhen, `${at}/successWhen`, file);
  const definition: ValidatorDefinition = {
    type: 'command',
    command,
    successWhen,
    extractParams: { ...(raw.extractParams ?? {}) },
    ...(raw.failurePattern ? { failurePattern: raw.failurePattern } : {}),
    ...(raw.timeoutMs === undefined ? {} : { timeoutMs: raw.timeoutMs }),
    ...(raw.baseline === undefined ? {} : { baseline: raw.baseline }),
  };
  return { definition, problems };
}

function checkSuccessWhen(value: string, at: string, file: string): Problem[] {
  const expected = "'empty', 'exitCode:N', 'contains:S' or 'matches:RE'";
  if (!SUCCESS_WHEN.test(value)) {
    return [
      problem({
        code: 'VALIDATOR_SUCCESS_WHEN',
        file,
        pointer: at,
        rule: 'success-when-form',
        expected,
        message: `unknown successWhen '${value}'`,
      }),
    ];
  }
  if (value.startsWith('matches:')) {
    try {
      new RegExp(value.slice('matches:'.length));
    } catch {
      return [
        problem({
          code: 'VALIDATOR_SUCCESS_WHEN',
          file,
          pointer: at,
          rule: 'success-when-form',
          expected: 'a valid regular expression',
          message: `invalid regular expression in '${value}'`,
        }),
      ];
    }
  }
  return [];
}

function toCompletionStep(
  key: string,
  raw: RawCompletionStep,
  at: string,
  file: string,
  problems: Problem[],
  inert: ReadonlySet<string>,
): DraftCompletionStep {
  if (raw.stepId !== undefined && raw.stepId !== key) {
    problems.push(
      problem({
        code: 'STEP_ID_MISMATCH',
        file,
        pointer: `${at}/stepId`,
        rule: 'step-id-equals-key',
        expected: `'${key}'`,
        message: `stepId '${raw.stepId}' differs from its key '${key}'`,
      }),
    );
  }
  if (raw.completionConditions !== undefined && raw.validationConditions !== undefined) {
    problems.push(
      conflict(file, `${at}/validationConditions`, 'both completionConditions and validationConditions are set'),
    );
  }
  if (raw.onFail !== undefined && raw.onFailure !== undefined) {
    problems.push(conflict(file, `${at}/onFailure`, 'both onFail and onFailure are set'));
  }
  const conditionsKey = raw.completionConditions !== undefined ? 'completionConditions' : 'validationConditions';
  const conditions: ConditionRef[] = (raw.completionConditions ?? raw.validationConditions ?? [])
    .filter((c) => !inert.has(c.validator))
    .map((c) => ({ validator: c.validator, params: { ...(c.params ?? {}) } }));
  const action: FailAction =
    raw.onFailure?.action !== undefined
      ? (raw.onFailure.action as FailAction)
      : raw.onFail?.retry === false
        ? 'abort'
        : 'retry';
  return {
    key,
    pointer: at,
    conditionsPointer: `${at}/${conditionsKey}`,
    definition: {
      stepId: key,
      name: raw.name ?? key,
      c2: raw.c2 ?? DEFAULT_RETRY_C2,
      c3: raw.c3 ?? raw.prompt?.c3 ?? key.split('.').pop() ?? key,
      conditions,
      onFail: { action, maxAttempts: raw.onFailure?.maxAttempts ?? raw.onFail?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS },
    },
  };
}

function incomplete(file: string, at: string, message: string, expected: string): Problem {
  return problem({ code: 'VALIDATOR_INCOMPLETE', file, pointer: at, rule: 'validator-complete', expected, message });
}

function conflict(file: string, at: string, message: string): Problem {
  return problem({
    code: 'VOCABULARY_CONFLICT',
    file,
    pointer: at,
    rule: 'one-vocabulary-per-object',
    expected: 'either the seed or the upstream key, not both',
    message,
  });
}
