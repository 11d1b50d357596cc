/**
 * The built-in `test-integrity` validator: no command of its own; it reads the run's
 * diff against the commit the issue branch was cut from (working tree included, so
 * uncommitted edits count too) with the harness git runner and reports the places
 * where tests were weakened (detect-test-weakening; in a Rust source file, inside its
 * test items: in-source-tests), all waived when the issue carries
 * the label agent:tests-only (issue-waiver).
 *
 * The base is the merge-base of HEAD and the branch recorded at worktree creation
 * (`branch.<branch>.agentBase`); a condition param `base` (a commit or branch) takes
 * precedence. Without either there is nothing to compare and the check fails,
 * unrecoverable (base-commit.ts, noBaseResult).
 */
import type { ConditionResult } from '../../../contracts/activities.js';
import type { JsonValue } from '../../../contracts/json.js';
import { git } from '../../workspace/git/git.js';
import { TESTS_ONLY_LABEL } from '../../../contracts/tests-not-run.js';
import { baseCommitsOf, noBaseResult, type BaseCommits } from '../base-commit.js';
import { detectTestWeakening, type IntegrityFinding } from './detect-test-weakening.js';
import { inSourceTests } from './in-source-tests.js';
import { splitWaived } from './issue-waiver.js';
import { parseUnifiedDiff } from './parse-unified-diff.js';

export const TEST_INTEGRITY_VALIDATOR = 'test-integrity';
const MAX_LISTED = 20;

/** Pinned so repository config (noprefix, external diff, textconv, renames) cannot change what we parse. */
export const INTEGRITY_DIFF_ARGS: readonly string[] = [
  '-c',
  'core.quotePath=false',
  'diff',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--no-renames',
  '--no-relative',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '-U0',
];

export async function runTestIntegrityValidator(options: {
  readonly validator: string;
  readonly worktreePath: string;
  readonly params: Readonly<Record<string, JsonValue>>;
  readonly failurePattern?: string;
  /** The issue's labels: TESTS_ONLY_LABEL waives the findings (issue-waiver.ts). */
  readonly issueLabels?: readonly string[];
  /** The closure's bases (run-validators.ts); without it, this check finds its own. */
  readonly bases?: BaseCommits;
}): Promise<ConditionResult> {
  const { validator, worktreePath, params } = options;
  const base = await (options.bases ?? baseCommitsOf(worktreePath))(
    typeof params['base'] === 'string' ? params['base'] : undefined,
  );
  if (base === undefined) return noBaseResult(validator, params);
  const diff = await git(worktreePath, [...INTEGRITY_DIFF_ARGS, base, '--']);
  if (diff.exitCode !== 0) {
    return {
      validator,
      passed: false,
      summary: `git diff against ${base.slice(0, 12)} failed: ${diff.stderr.trim().split('\n')[0] ?? ''}`,
      params: { ...params },
      unrecoverable: true,
    };
  }
  const files = parseUnifiedDiff(diff.stdout);
  const findings = detectTestWeakening(files, await inSourceTests(worktreePath, base, files));
  const { blocking, waived } = splitWaived(findings, options.issueLabels);
  const waivedParam = { waived: waived.map(toJson) };
  if (blocking.length === 0) {
    const note =
      waived.length > 0 ? ` (${waived.length} change(s) allowed: the issue carries the label ${TESTS_ONLY_LABEL})` : '';
    return {
      validator,
      passed: true,
      summary: `no weakened tests against ${base.slice(0, 12)}${note}`,
      params: { ...params, ...waivedParam },
      unrecoverable: false,
    };
  }
  const first = blocking[0] as IntegrityFinding;
  return {
    validator,
    passed: false,
    summary: `${blocking.length} change(s) weakening the tests against ${base.slice(0, 12)}: ${blocking
      .slice(0, 3)
      .map((f) => `${f.file}:${f.line} ${f.finding}`)
      .join('; ')}`,
    ...(options.failurePattern === undefined ? {} : { failurePattern: options.failurePattern }),
    params: {
      ...params,
      file: first.file,
      line: first.line,
      finding: first.finding,
      findings: blocking.slice(0, MAX_LISTED).map(toJson),
      ...waivedParam,
    },
    unrecoverable: false,
  };
}

function toJson(f: IntegrityFinding): JsonValue {
  return { kind: f.kind, file: f.file, line: f.line, finding: f.finding };
}
