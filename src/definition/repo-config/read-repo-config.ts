/**
 * Reads and checks `<repo>/.agent/config.json`. Absent is fine (undefined); present and
 * wrong is a CONFIG_INVALID error naming the file, the JSON pointer of every problem and
 * what was expected, before anything is started.
 */
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { strictSchema } from '../schema/lazy-ajv.js';
import { readOptional } from '../load/read-optional.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { RepoConfigFile } from '../../contracts/repo-config.js';
import { REPO_CONFIG_SCHEMA } from './repo-config-schema.js';

export const REPO_AGENT_DIR = '.agent';
export const REPO_CONFIG_FILE = join(REPO_AGENT_DIR, 'config.json');

/** Compiled on first use: at import it cost every CLI command ~60 ms. */
const validator = strictSchema(REPO_CONFIG_SCHEMA);

/** What a value with alternatives must be, said as a person would (Ajv says "must match a schema in anyOf"). */
const ALTERNATIVES: Readonly<Record<string, string>> = {
  '/commands/setup': 'a command line (a non-empty string) or a non-empty list of them',
  '/planApproval': '"never", "always", or an object with maxFiles (an integer ≥ 0) and/or paths (a list of globs)',
};

function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? '/' : error.instancePath;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at}: unknown key "${String(error.params['additionalProperty'])}"`;
    case 'enum':
      return `${at}: must be one of ${(error.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'anyOf': {
      const expected = Object.entries(ALTERNATIVES).find(([suffix]) => at.endsWith(suffix))?.[1];
      return `${at}: ${expected === undefined ? (error.message ?? 'invalid') : `must be ${expected}`}`;
    }
    case 'minLength':
    case 'minItems':
      if (error.params['limit'] === 1) return `${at}: must not be empty`;
      return `${at}: ${error.message ?? 'invalid'}`;
    default:
      return `${at}: ${error.message ?? 'invalid'}`;
  }
}

/** An alternative's error that says more than the anyOf can: about a key or an item within. */
const within = (e: ErrorObject, path: string): boolean =>
  e.instancePath.startsWith(`${path}/`) || (e.instancePath === path && e.keyword === 'additionalProperties');

/**
 * An `anyOf` failure: when an alternative's errors are about a key or an item within the
 * value, they say what is wrong (`/planApproval/maxFiles: must be >= 0`) and the anyOf is
 * dropped; otherwise (a value of no alternative's kind, an empty list) the anyOf alone
 * says it and the alternatives' errors are dropped.
 */
function withoutAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  const under = (e: ErrorObject, p: string): boolean => e.instancePath === p || e.instancePath.startsWith(`${p}/`);
  let kept = [...errors];
  for (const anyOf of errors.filter((e) => e.keyword === 'anyOf')) {
    const p = anyOf.instancePath;
    const specific = kept.filter((e) => e !== anyOf && within(e, p));
    kept = kept.filter((e) => !under(e, p) || (specific.length > 0 ? specific.includes(e) : e === anyOf));
  }
  return kept;
}

export async function readRepoConfig(repoPath: string): Promise<RepoConfigFile | undefined> {
  const file = join(repoPath, REPO_CONFIG_FILE);
  let text: string | undefined;
  try {
    text = await readOptional(file);
  } catch (error) {
    throw new AgentError(FailureType.ConfigInvalid, `cannot read ${file}: ${(error as Error).message}`, {
      where: file,
    });
  }
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AgentError(FailureType.ConfigInvalid, `${file} is not valid JSON: ${(error as Error).message}`, {
      where: file,
      expected: 'a JSON object',
    });
  }
  const validate = validator();
  if (!validate(value)) {
    const errors = withoutAlternatives(validate.errors ?? []);
    const problems = errors.map(describe);
    const first = errors[0]?.instancePath ?? '';
    throw new AgentError(FailureType.ConfigInvalid, `${file} is invalid:\n  ${problems.join('\n  ')}`, {
      where: `${file}#${first}`,
      expected:
        'keys commands{test,typeCheck,lint,format,setup}, environment{agentSetup}, baseBranch, deliver, budget{maxUsd,maxTokens,hardMaxUsd}, maxIterations, answerTimeoutHours, planApproval, model, issues, agent, watch{mention,label,ciRounds}, labels{needsHuman}',
    });
  }
  const config = value as RepoConfigFile;
  const { maxUsd, hardMaxUsd } = config.budget ?? {};
  if (maxUsd !== undefined && hardMaxUsd !== undefined && hardMaxUsd < maxUsd)
    throw new AgentError(
      FailureType.ConfigInvalid,
      `${file} is invalid: budget.hardMaxUsd ($${hardMaxUsd}) is below budget.maxUsd ($${maxUsd})`,
      { where: `${file}#/budget/hardMaxUsd`, expected: 'a hard limit at or above the soft limit maxUsd' },
    );
  return config;
}
