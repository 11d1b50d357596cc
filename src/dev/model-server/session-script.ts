/**
 * The session script the offline model server plays: an ordered list of rules, each
 * a `when` (what request it answers) and a `respond` (what to answer). Other
 * engineers write these by hand; a bad script fails loudly at load with a pointer.
 */
import { readFileSync } from 'node:fs';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export interface RuleWhen {
  /** All required, matched against the first user message's text blocks (joined). */
  readonly promptContains?: string | readonly string[];
  readonly systemContains?: string | readonly string[];
  /** Number of assistant messages already in the request; absent = any turn. */
  readonly turn?: number;
  readonly lastToolResultContains?: string | readonly string[];
}

export interface RuleError {
  readonly status: number;
  readonly type: string;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RuleRespond {
  readonly text?: string;
  readonly json?: unknown;
  readonly rawText?: string;
  /** Fault mode: HTTP 200 whose body is this text verbatim (a malformed answer). */
  readonly rawBody?: string;
  readonly toolUse?: ReadonlyArray<{ readonly name: string; readonly input: unknown }>;
  readonly error?: RuleError;
  readonly delayMs?: number;
  readonly reset?: boolean;
  readonly stopReason?: string;
  readonly usage?: Readonly<Record<string, number>>;
}

export interface SessionRule {
  readonly id: string;
  readonly when: RuleWhen;
  readonly times?: number;
  readonly respond: RuleRespond;
}

export interface SessionScript {
  readonly name: string;
  readonly model?: string;
  readonly rules: readonly SessionRule[];
}

const WHEN_KEYS = ['promptContains', 'systemContains', 'turn', 'lastToolResultContains'];
const RESPOND_KEYS = [
  'text',
  'json',
  'rawText',
  'rawBody',
  'toolUse',
  'error',
  'delayMs',
  'reset',
  'stopReason',
  'usage',
];

function invalid(where: string, message: string, expected?: string): never {
  throw new AgentError(FailureType.ConfigInvalid, `invalid session script: ${message}`, {
    where,
    ...(expected ? { expected } : {}),
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): boolean =>
  typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string'));

export function parseSessionScript(value: unknown, source = 'session'): SessionScript {
  if (!isObject(value)) invalid(source, 'the script must be a JSON object');
  if (typeof value['name'] !== 'string') invalid(`${source}#/name`, 'name is missing', 'a string');
  if (value['model'] !== undefined && typeof value['model'] !== 'string')
    invalid(`${source}#/model`, 'model must be a string');
  const rules = value['rules'];
  if (!Array.isArray(rules)) invalid(`${source}#/rules`, 'rules is missing', 'an array of rules');
  const ids = new Set<string>();
  rules.forEach((rule: unknown, i) => {
    const at = `${source}#/rules/${i}`;
    if (!isObject(rule)) invalid(at, 'a rule must be an object');
    if (typeof rule['id'] !== 'string' || rule['id'] === '') invalid(`${at}/id`, 'id is missing', 'a non-empty string');
    if (ids.has(rule['id'])) invalid(`${at}/id`, `duplicate rule id ${rule['id']}`);
    ids.add(rule['id']);
    const when = rule['when'] ?? {};
    if (!isObject(when)) invalid(`${at}/when`, 'when must be an object');
    for (const key of Object.keys(when))
      if (!WHEN_KEYS.includes(key)) invalid(`${at}/when/${key}`, `unknown condition ${key}`, WHEN_KEYS.join(', '));
    for (const key of ['promptContains', 'systemContains', 'lastToolResultContains']) {
      if (when[key] !== undefined && !isStrings(when[key]))
        invalid(`${at}/when/${key}`, `${key} must be a string or string[]`);
    }
    if (when['turn'] !== undefined && (!Number.isInteger(when['turn']) || (when['turn'] as number) < 0))
      invalid(`${at}/when/turn`, 'turn must be an integer >= 0');
    if (rule['times'] !== undefined && (!Number.isInteger(rule['times']) || (rule['times'] as number) < 1))
      invalid(`${at}/times`, 'times must be an integer >= 1');
    const respond = rule['respond'];
    if (!isObject(respond)) invalid(`${at}/respond`, 'respond is missing', 'an object');
    for (const key of Object.keys(respond))
      if (!RESPOND_KEYS.includes(key))
        invalid(`${at}/respond/${key}`, `unknown response field ${key}`, RESPOND_KEYS.join(', '));
    const toolUse = respond['toolUse'];
    if (
      toolUse !== undefined &&
      (!Array.isArray(toolUse) || !toolUse.every((t) => isObject(t) && typeof t['name'] === 'string'))
    ) {
      invalid(`${at}/respond/toolUse`, 'toolUse must be an array of { name, input }');
    }
    if (respond['rawBody'] !== undefined && typeof respond['rawBody'] !== 'string')
      invalid(`${at}/respond/rawBody`, 'rawBody must be a string (sent verbatim as the HTTP 200 body)');
    const error = respond['error'];
    if (
      error !== undefined &&
      (!isObject(error) ||
        typeof error['status'] !== 'number' ||
        typeof error['type'] !== 'string' ||
        typeof error['message'] !== 'string')
    ) {
      invalid(`${at}/respond/error`, 'error must be { status, type, message, headers? }');
    }
  });
  return value as unknown as SessionScript;
}

export function loadSessionScript(file: string): SessionScript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new AgentError(FailureType.ConfigInvalid, `cannot read session script: ${(error as Error).message}`, {
      where: file,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AgentError(FailureType.ConfigInvalid, `session script is not valid JSON: ${(error as Error).message}`, {
      where: file,
    });
  }
  return parseSessionScript(value, file);
}
