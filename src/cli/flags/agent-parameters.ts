/**
 * Agent parameters on the start-run command line (upstream run-agent): every declared
 * parameter as its own flag (`cli`, e.g. `--pr-number 5`, or the kebab-cased key) and
 * the generic `--param key=value` (repeatable). They are taken out of argv before the
 * command's strict flag parsing, typed by the declaration (number, boolean, array as
 * JSON), defaults applied, and a missing `required` one is a usage error naming it.
 * A parameter whose flag is one of the command's own (upstream `--issue`) takes that
 * flag's value.
 */
import { UsageError } from '../../contracts/errors.js';
import type { ParameterSpec } from '../../contracts/definition.js';
import { withParameterDefaults, type ParameterValue } from '../../contracts/parameter-values.js';
import { loadAgentDefinition } from '../../definition/load/load-agent-definition.js';
import { agentDirOf } from '../run-target.js';

export interface ExtractedParameters {
  /** argv without the parameter flags, for the command's own strict parsing. */
  readonly argv: string[];
  readonly specs: Readonly<Record<string, ParameterSpec>>;
  /** Raw values by parameter key. */
  readonly given: Readonly<Record<string, string | true>>;
}

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function valueFlag(argv: readonly string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const arg = argv[i] ?? '';
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
}

/** Reads the agent's declared parameters (from `--agent`) and takes their flags out of argv. */
export async function extractAgentParameters(
  argv: readonly string[],
  ownFlags: Readonly<Record<string, unknown>>,
): Promise<ExtractedParameters> {
  const agent = valueFlag(argv, 'agent');
  const loaded = await loadAgentDefinition(agentDirOf(agent === undefined ? {} : { agent }));
  // A broken definition is reported by the command itself, with every problem; its
  // declared parameters still come out of argv, so that report is not a usage error.
  const specs = loaded.ok ? loaded.definition.parameters : (loaded.parameters ?? {});
  const byFlag = new Map<string, string>();
  for (const [key, spec] of Object.entries(specs)) {
    for (const flag of [spec.cli.replace(/^--/, ''), kebab(key), key]) {
      if (!Object.hasOwn(ownFlags, flag)) byFlag.set(flag, key);
    }
  }
  const rest: string[] = [];
  const given: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag = '', inline] = arg.startsWith('--') ? splitOnce(arg.slice(2)) : [''];
    if (flag === 'param') {
      const pair = inline ?? argv[++i];
      const [key = '', value] = splitOnce(pair ?? '');
      if (value === undefined || !Object.hasOwn(specs, key)) {
        throw new UsageError(
          `--param needs key=value with a declared parameter (${Object.keys(specs).join(', ') || 'this agent declares none'}), got "${pair ?? ''}"`,
          '--param',
        );
      }
      given[key] = value;
      continue;
    }
    const key = byFlag.get(flag);
    if (key === undefined) {
      rest.push(arg);
      continue;
    }
    const next = argv[i + 1];
    if (inline !== undefined) given[key] = inline;
    else if (specs[key]?.type === 'boolean' && (next === undefined || next.startsWith('--'))) given[key] = true;
    else if (next === undefined)
      throw new UsageError(`--${flag} needs a value (${specs[key]?.description ?? key})`, `--${flag}`);
    else given[key] = argv[++i] ?? '';
  }
  return { argv: rest, specs, given };
}

function splitOnce(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** Typed values with defaults; `own` gives the values of the command's own flags (e.g. issue). */
export function resolveAgentParameters(
  extracted: ExtractedParameters,
  own: Readonly<Record<string, string | number | undefined>>,
): Record<string, ParameterValue> {
  const typed: Record<string, ParameterValue> = {};
  for (const [key, spec] of Object.entries(extracted.specs)) {
    const flag = spec.cli.replace(/^--/, '');
    const raw = extracted.given[key] ?? own[flag];
    if (raw !== undefined) typed[key] = typedValue(key, spec, raw);
  }
  const values = withParameterDefaults(extracted.specs, typed);
  for (const [key, spec] of Object.entries(extracted.specs)) {
    if (spec.required && values[key] === undefined) {
      throw new UsageError(
        `missing required agent parameter ${spec.cli} (${key}${spec.description ? `: ${spec.description}` : ''}); give ${spec.cli} VALUE or --param ${key}=VALUE`,
        spec.cli,
      );
    }
  }
  return values;
}

function typedValue(key: string, spec: ParameterSpec, raw: string | number | true): ParameterValue {
  const text = String(raw);
  switch (spec.type) {
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) {
        throw new UsageError(`agent parameter ${spec.cli} (${key}) must be a number, got "${text}"`, spec.cli);
      }
      return n;
    }
    case 'boolean':
      if (raw === true || text === 'true') return true;
      if (text === 'false') return false;
      throw new UsageError(`agent parameter ${spec.cli} (${key}) must be true or false, got "${text}"`, spec.cli);
    case 'array':
      return JSON.stringify(
        text
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      );
    case 'string':
      return text;
  }
}
