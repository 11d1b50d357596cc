/**
 * Runs a completion step's conditions in the worktree, ALL of them: the retry prompt lists
 * everything still wrong. Each failure carries its failure pattern and the params its
 * extractors pulled from the output. Results come in declared order (then the run branch's
 * hold: judged-tree/held-branch.ts); a clean-tree check runs first, and what each validator
 * command adds is taken away after it (validator-outputs.ts): all judge the agent's tree.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { ArtifactRef, ConditionResult, RunValidatorsInput, ValidationReport } from '../../contracts/activities.js';
import type { ConditionRef, ValidatorDefinition } from '../../contracts/definition.js';
import type { CommandRunner } from '../process/command-runner.js';
import { extractParams } from './extractors.js';
import { runsTests } from './test-reports/runs-tests.js';
import { runFileValidator } from './file-validator.js';
import { judgeAgainstBaseline } from './baseline/judge-against-baseline.js';
import { testsNotRunResult, testsRanSinceBase } from './baseline/tests-ran-since-base.js';
import { restoreInterruptedSwap } from './baseline/code-at-base.js';
import { parseTestFailures } from './test-reports/parse-test-failures.js';
import { runCollectingReports } from './test-reports/report-files.js';
import { runTestIntegrityValidator } from './integrity/test-integrity-validator.js';
import { runBranchChangedValidator } from './branch-change/branch-changed-validator.js';
import type { NoChangeDeclaration, UnchangedBranch } from '../../contracts/no-change.js';
import type { PreExistingClaim } from '../../contracts/pre-existing-claims.js';
import { commandSummary, fullOutput } from './summarize.js';
import { describeRule, parseSuccessWhen, satisfies } from './success-when.js';
import { substituteParams } from './substitute-params.js';
import { unrecoverableReason } from './unrecoverable.js';
import { baseCommitsOf, type BaseCommits } from './base-commit.js';
import { cleanTreeFirst, isCleanTreeCheck, removeValidatorOutputs, snapshotTree } from './validator-outputs.js';
import { judgeTheCommit, markTrusted } from './judged-tree/judge-the-commit.js';
import { treeNotesOf } from './judged-tree/judged-tree-notes.js';
import { branchMoved } from './judged-tree/held-branch.js';

export interface RunValidatorsDeps {
  readonly commands: CommandRunner;
  /** Stores a command's full output as a run artifact (kept out of workflow history). */
  readonly saveOutput?: (text: string) => Promise<ArtifactRef>;
  readonly signal?: AbortSignal;
}

const DEFAULT_VALIDATOR_TIMEOUT_MS = 10 * 60 * 1000;

export async function runValidators(deps: RunValidatorsDeps, input: RunValidatorsInput): Promise<ValidationReport> {
  const conditions = input.completionStep.conditions;
  const definitions = conditions.map((condition) => definitionOf(input, condition));
  // Files a worker left at the base when it died (code-at-base.ts) go back; then the validators vouch for
  // the commit: nothing the index hides or the agent left ignored (judged-tree/).
  await restoreInterruptedSwap(input.worktreePath);
  const judged = await judgeTheCommit(input.worktreePath);
  // The tree as the agent left it; what a validator command adds is not the agent's (validator-outputs.ts).
  const before = await snapshotTree(input.worktreePath);
  const bases = baseCommitsOf(input.worktreePath);
  const results: ConditionResult[] = [];
  let unchanged: UnchangedBranch | undefined;
  for (const index of cleanTreeFirst(conditions, input.validators)) {
    const condition = conditions[index]!;
    const definition = definitions[index]!;
    const checked = await runCondition({
      deps,
      worktreePath: input.worktreePath,
      bases,
      condition,
      definition,
      ...(input.issueText === undefined ? {} : { issueText: input.issueText }),
      ...(input.issueLabels === undefined ? {} : { issueLabels: input.issueLabels }),
      // A closing that declares no change delivers nothing: the base's failures need no account.
      ...(input.noChange === undefined ? { claims: input.preExistingClaims ?? [] } : { noChange: input.noChange }),
    });
    if (before !== undefined && definition.type === 'command' && !isCleanTreeCheck(definition, condition))
      await removeValidatorOutputs(input.worktreePath, before);
    results[index] = checked.result;
    unchanged ??= checked.unchanged;
  }
  results.push(...(await branchMoved(input.worktreePath, judged.branch)));
  await markTrusted(input.worktreePath);
  return {
    passed: results.every((r) => r.passed),
    results,
    ...(unchanged === undefined ? {} : { unchanged }),
    ...treeNotesOf(judged),
  };
}

function definitionOf(input: RunValidatorsInput, condition: ConditionRef): ValidatorDefinition {
  const definition = input.validators[condition.validator];
  if (definition !== undefined) return definition;
  throw new AgentError(
    FailureType.ConfigInvalid,
    `Completion step ${input.completionStep.stepId} uses unknown validator ${JSON.stringify(condition.validator)}`,
    {
      where: `completionSteps.${input.completionStep.stepId}.conditions`,
      expected: `one of: ${Object.keys(input.validators).join(', ') || '(no validators defined)'}`,
    },
  );
}

/** A condition's result; `unchanged` when a branch-changed condition confirmed a no-change declaration. */
interface CheckedCondition {
  readonly result: ConditionResult;
  readonly unchanged?: UnchangedBranch;
}

async function runCondition(options: {
  deps: RunValidatorsDeps;
  worktreePath: string;
  bases: BaseCommits;
  condition: ConditionRef;
  definition: ValidatorDefinition;
  issueText?: string;
  issueLabels?: readonly string[];
  noChange?: NoChangeDeclaration;
  claims?: readonly PreExistingClaim[];
}): Promise<CheckedCondition> {
  const { definition, condition } = options;
  const pattern = definition.failurePattern === undefined ? {} : { failurePattern: definition.failurePattern };
  const on = {
    validator: condition.validator,
    worktreePath: options.worktreePath,
    bases: options.bases,
    params: condition.params,
    ...pattern,
  };
  switch (definition.type) {
    case 'file':
      return { result: await runFileValidator({ ...on, paths: definition.paths }) };
    case 'command':
      return { result: await runCommandValidator({ ...options, definition }) };
    case 'test-integrity':
      return {
        result: await runTestIntegrityValidator({
          ...on,
          ...(options.issueLabels === undefined ? {} : { issueLabels: options.issueLabels }),
        }),
      };
    case 'branch-changed':
      return runBranchChangedValidator({
        ...on,
        ...(options.noChange === undefined ? {} : { declared: options.noChange }),
      });
  }
}

async function runCommandValidator(options: {
  deps: RunValidatorsDeps;
  worktreePath: string;
  bases: BaseCommits;
  issueText?: string;
  issueLabels?: readonly string[];
  claims?: readonly PreExistingClaim[];
  condition: ConditionRef;
  definition: Extract<ValidatorDefinition, { type: 'command' }>;
}): Promise<ConditionResult> {
  const { deps, condition, definition } = options;
  const command = substituteParams(definition.command, condition.params);
  const request = {
    command,
    cwd: options.worktreePath,
    timeoutMs: definition.timeoutMs ?? DEFAULT_VALIDATOR_TIMEOUT_MS,
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  const { outcome, reports } = runsTests(definition)
    ? await runCollectingReports(deps.commands, request)
    : { outcome: await deps.commands.run(request), reports: {} };
  const failures = runsTests(definition) ? parseTestFailures(`${outcome.stdout}\n${outcome.stderr}`, reports) : [];
  const output = deps.saveOutput ? await deps.saveOutput(fullOutput(command, outcome)) : undefined;
  const base = { validator: condition.validator, command, ...(output ? { output } : {}) };
  const failurePattern = definition.failurePattern === undefined ? {} : { failurePattern: definition.failurePattern };

  if (outcome.kind !== 'exited' || outcome.exitCode === undefined) {
    const ended = outcome.error ?? outcome.kind;
    return {
      ...base,
      ...failurePattern,
      passed: false,
      summary: commandSummary({ command, ended, stdout: outcome.stdout, stderr: outcome.stderr, failures }),
      params: {
        ...condition.params,
        ...extractParams(definition.extractParams, { ...outcome, exitCode: null, reports }),
      },
      // A command that cannot start (worktree gone, bash missing) will not start next time either.
      unrecoverable: outcome.kind === 'crashed',
    };
  }

  const exitCode = outcome.exitCode;
  const rule = parseSuccessWhen(definition.successWhen);
  const text = `${outcome.stdout}\n${outcome.stderr}`;
  const testsRan = () => testsRanSinceBase({ ...options, ...request, commands: deps.commands, output: text, reports });
  if (satisfies(rule, { stdout: outcome.stdout, exitCode })) {
    // The tests still ran as on the base; those red there that this branch fixed, for the reviewer.
    const ran = definition.baseline === undefined ? undefined : await testsRan();
    if (ran?.blocks) return testsNotRunResult(base, exitCode, ran, condition.params);
    return {
      ...base,
      exitCode,
      passed: true,
      summary: `\`${command}\` passed (${describeRule(rule)})${ran?.fixedLine ? `; ${ran.fixedLine}` : ''}`,
      params: { ...condition.params, ...(ran?.params ?? {}) },
      unrecoverable: false,
    };
  }
  const fatal =
    rule.kind === 'invalid'
      ? rule.problem
      : unrecoverableReason({ exitCode, stdout: outcome.stdout, stderr: outcome.stderr });
  const params = { ...condition.params, ...extractParams(definition.extractParams, { ...outcome, exitCode, reports }) };
  const judged =
    fatal === undefined && definition.baseline !== undefined
      ? await judgeAgainstBaseline({
          commands: deps.commands,
          ...(deps.signal ? { signal: deps.signal } : {}),
          worktreePath: options.worktreePath,
          bases: options.bases,
          command,
          timeoutMs: definition.timeoutMs ?? DEFAULT_VALIDATOR_TIMEOUT_MS,
          mode: definition.baseline,
          ...(options.issueText === undefined ? {} : { issueText: options.issueText }),
          failedNow: failures,
          ...(options.claims === undefined ? {} : { claims: options.claims }),
        })
      : undefined;
  if (judged !== undefined && !judged.blocks) {
    const ran = await testsRan();
    if (ran?.blocks) return testsNotRunResult(base, exitCode, ran, params);
    return {
      ...base,
      exitCode,
      passed: true,
      summary: `\`${command}\` exited ${exitCode}, accepted under ${judged.line}`,
      params: { ...params, ...judged.params },
      unrecoverable: false,
    };
  }
  const expected = `(expected ${describeRule(rule)})`;
  const ended = fatal
    ? `exited ${exitCode}, unrecoverable: ${fatal}`
    : rule.kind === 'empty' && exitCode === 0
      ? `printed output ${expected}`
      : `exited ${exitCode} ${expected}`;
  return {
    ...base,
    ...(judged?.failurePattern === undefined ? failurePattern : { failurePattern: judged.failurePattern }),
    exitCode,
    passed: false,
    summary: `${commandSummary({ command, ended, stdout: outcome.stdout, stderr: outcome.stderr, failures })}${judged ? `\n${judged.line}` : ''}`,
    params: { ...params, ...(judged?.params ?? {}) },
    unrecoverable: fatal !== undefined,
  };
}
