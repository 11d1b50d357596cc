/**
 * `runner.verdict` → VerdictSpec with the canonical (seed) type name, checking the
 * configuration each type needs (upstream AC-VERDICT-001..010). Composite children are
 * checked recursively and limited to the simple types upstream supports as children.
 */
import {
  canonicalCompletionType,
  CLOSURE_GRACE_KEY,
  CompositeOperator,
  type CompletionType,
} from '../../contracts/completion-types.js';
import type { VerdictSpec } from '../../contracts/definition.js';
import type { JsonObject, JsonValue } from '../../contracts/json.js';
import { isJsonObject } from '../../contracts/json.js';
import { pointer as ptr, problem, warning, type Problem } from '../problem.js';
import type { RawVerdict } from '../load/raw-files.js';

export const DEFAULT_MAX_ITERATIONS = 20;
export const DEFAULT_VERDICT_TYPE: CompletionType = 'iterationBudget';

const COMPOSITE_CHILD_TYPES: readonly CompletionType[] = [
  'externalState',
  'iterationBudget',
  'checkBudget',
  'keywordSignal',
  'structuredSignal',
];

export interface VerdictResult {
  readonly spec: VerdictSpec;
  readonly problems: Problem[];
}

export function normaliseVerdict(raw: RawVerdict | undefined, file: string): VerdictResult {
  const problems: Problem[] = [];
  const spec = normaliseOne(raw?.type ?? DEFAULT_VERDICT_TYPE, raw?.config ?? {}, {
    file,
    at: '/runner/verdict',
    problems,
  });
  // Upstream merges a default maxIterations under the user's config: it is also the global cap.
  const config: JsonObject = { maxIterations: DEFAULT_MAX_ITERATIONS, ...spec.config };
  checkClosureGrace(config, { file, at: '/runner/verdict', problems });
  return { spec: { ...spec, config }, problems };
}

/**
 * `closureGrace`: iterations a run may take past its cap, at a closure step, once the
 * criterion is met (default 0: the cap is exact).
 */
function checkClosureGrace(config: JsonObject, w: Where): void {
  const grace = config[CLOSURE_GRACE_KEY];
  if (grace !== undefined && (typeof grace !== 'number' || !Number.isInteger(grace) || grace < 0)) {
    w.problems.push(
      fail(
        w,
        'VERDICT_CLOSURE_GRACE',
        `${w.at}/config${ptr(CLOSURE_GRACE_KEY)}`,
        `an integer >= 0 for ${CLOSURE_GRACE_KEY}`,
        `invalid ${CLOSURE_GRACE_KEY} ${JSON.stringify(grace)}`,
      ),
    );
  }
}

interface Where {
  readonly file: string;
  /** Pointer of the verdict object (`{type, config}`). */
  readonly at: string;
  readonly problems: Problem[];
}

function normaliseOne(typeName: string, config: JsonObject, w: Where): VerdictSpec {
  const type = canonicalCompletionType(typeName);
  if (type === undefined) {
    w.problems.push(
      fail(
        w,
        'VERDICT_TYPE_UNKNOWN',
        `${w.at}/type`,
        'a verdict type (seed or upstream name)',
        `unknown verdict type '${typeName}'`,
      ),
    );
    return { type: DEFAULT_VERDICT_TYPE, config };
  }
  checkPositive(config, 'maxIterations', 'VERDICT_MAX_ITERATIONS', w, false);
  switch (type) {
    case 'externalState':
      checkPositive(config, 'pollIntervalMs', 'VERDICT_POLL_INTERVAL', w, false);
      checkPositive(config, 'maxPolls', 'VERDICT_MAX_POLLS', w, false);
      break;
    case 'checkBudget':
      checkPositive(config, 'maxChecks', 'VERDICT_MAX_CHECKS', w, true);
      break;
    case 'keywordSignal':
      checkText(config, 'verdictKeyword', 'VERDICT_KEYWORD_MISSING', w);
      break;
    case 'structuredSignal':
      checkText(config, 'signalType', 'VERDICT_SIGNAL_TYPE_MISSING', w);
      w.problems.push(structuredFormsWarning(w));
      break;
    case 'custom':
      checkText(config, 'handlerPath', 'VERDICT_HANDLER_PATH_MISSING', w);
      break;
    case 'composite':
      return composite(config, w);
    default:
      break;
  }
  return { type, config };
}

/**
 * Upstream detect:structured also counted a code fence tagged `<signalType>` in the
 * reply text and `result: "complete"`. Here answers come through the step's JSON schema
 * and the strategy reads `signal`/`type` == signalType or `status: "completed"` only:
 * said at load, never silently (docs/registry-reference.md, "Completion types").
 */
function structuredFormsWarning(w: Where): Problem {
  return warning({
    code: 'STRUCTURED_SIGNAL_FORMS_UNSUPPORTED',
    file: w.file,
    pointer: `${w.at}/type`,
    rule: 'structured-signal-forms',
    expected: 'the signal in the structured output: `signal` or `type` equal to signalType, or `status: "completed"`',
    message:
      'detect:structured here does not recognise upstream\'s fenced ```<signalType>``` block in the reply text nor `result: "complete"`; give the step schema a `signal` (or `status`) field',
  });
}

function composite(config: JsonObject, w: Where): VerdictSpec {
  const operators: readonly string[] = Object.values(CompositeOperator);
  const operator = config.operator;
  const validOperator = typeof operator === 'string' && operators.includes(operator);
  if (!validOperator) {
    w.problems.push(
      fail(
        w,
        'VERDICT_COMPOSITE_OPERATOR',
        `${w.at}/config/operator`,
        `one of ${operators.join(', ')}`,
        'composite verdict needs an operator',
      ),
    );
  }
  const conditions = config.conditions;
  if (!Array.isArray(conditions) || conditions.length === 0) {
    w.problems.push(
      fail(
        w,
        'VERDICT_COMPOSITE_CONDITIONS',
        `${w.at}/config/conditions`,
        'a non-empty array of {type, config}',
        'composite verdict needs conditions',
      ),
    );
  }
  const children = (Array.isArray(conditions) ? conditions : []).flatMap((c, i) => child(c, i, w));
  return {
    type: 'composite',
    config,
    ...(validOperator ? { operator: operator as CompositeOperator } : {}),
    children,
  };
}

function child(condition: JsonValue, index: number, w: Where): VerdictSpec[] {
  const at = `${w.at}/config/conditions/${index}`;
  const type = isJsonObject(condition) ? condition.type : undefined;
  const canonical = typeof type === 'string' ? canonicalCompletionType(type) : undefined;
  if (!isJsonObject(condition) || canonical === undefined || !COMPOSITE_CHILD_TYPES.includes(canonical)) {
    w.problems.push(
      fail(
        w,
        'VERDICT_COMPOSITE_CHILD',
        `${at}/type`,
        `a child type among ${COMPOSITE_CHILD_TYPES.join(', ')} (or upstream names)`,
        `invalid composite child type ${JSON.stringify(type ?? null)}`,
      ),
    );
    return [];
  }
  const config = isJsonObject(condition.config) ? condition.config : {};
  return [normaliseOne(canonical, config, { ...w, at })];
}

function checkPositive(config: JsonObject, key: string, code: string, w: Where, required: boolean): void {
  const value = config[key];
  if (value === undefined && !required) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    w.problems.push(
      fail(
        w,
        code,
        `${w.at}/config${ptr(key)}`,
        `an integer >= 1 for ${key}`,
        value === undefined ? `missing ${key}` : `invalid ${key} ${JSON.stringify(value)}`,
      ),
    );
  }
}

function checkText(config: JsonObject, key: string, code: string, w: Where): void {
  const value = config[key];
  if (typeof value !== 'string' || value.trim() === '') {
    w.problems.push(fail(w, code, `${w.at}/config${ptr(key)}`, `a non-empty string for ${key}`, `missing ${key}`));
  }
}

function fail(w: Where, code: string, pointer: string, expected: string, message: string): Problem {
  return problem({ code, file: w.file, pointer, rule: 'verdict-config', expected, message });
}
