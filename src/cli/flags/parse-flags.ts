/**
 * Parses and validates command flags with node's util.parseArgs (strict: unknown
 * flags and missing values are usage errors naming the flag).
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../../contracts/errors.js';
import type { CommandSpec } from './flag-spec.js';

export type ParsedFlags = Readonly<Record<string, string | boolean | undefined>>;

export function parseFlags(spec: CommandSpec, argv: readonly string[]): ParsedFlags {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [name, flag] of Object.entries(spec.flags)) options[name] = { type: flag.type };
  try {
    const args = negativeValuesJoined(argv, options);
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: true });
    if (spec.rest !== undefined && positionals.length > 0) {
      if (values[spec.rest] !== undefined)
        throw new UsageError(`give the text once: as --${spec.rest} or after the flags`, `--${spec.rest}`);
      return { ...(values as ParsedFlags), [spec.rest]: positionals.join(' ') };
    }
    if (positionals.length > 0) {
      // `retry --issue 7 "try X"`: the text has a flag of its own there.
      const hint = spec.flags['prompt']?.type === 'string' ? '; text goes in --prompt "..."' : '';
      throw new UsageError(`unexpected argument "${positionals[0]}" (flags start with --${hint})`);
    }
    return values as ParsedFlags;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const message = err instanceof Error ? (err.message.split('\n')[0] ?? String(err)) : String(err);
    throw new UsageError(`${message.replace(/\. To specify.*$/, '').replace(/\.$/, '')}; see --help`);
  }
}

/**
 * `--issue -1`: parseArgs calls a value that starts with a dash ambiguous; a negative
 * number is never a flag, so it is passed as `--issue=-1` and its own check names it.
 */
function negativeValuesJoined(argv: readonly string[], options: Record<string, { type: string }>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export function requireIssue(flags: ParsedFlags): number {
  const raw = flags['issue'];
  if (raw === undefined || raw === true || raw === '')
    throw new UsageError('--issue is required (a positive integer, e.g. --issue 99)', '--issue');
  const text = String(raw).trim();
  if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--issue must be a positive integer, got "${text}"`, '--issue');
  }
  return Number(text);
}

export function optionalNumber(
  flags: ParsedFlags,
  name: string,
  options: { integer?: boolean } = {},
): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (
    typeof raw !== 'string' ||
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (options.integer === true && !Number.isInteger(value))
  ) {
    throw new UsageError(
      `--${name} must be a positive ${options.integer ? 'integer' : 'number'}, got "${String(raw)}"`,
      `--${name}`,
    );
  }
  return value;
}

export function optionalString(flags: ParsedFlags, name: string): string | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.trim() === '') throw new UsageError(`--${name} needs a value`, `--${name}`);
  return raw;
}
