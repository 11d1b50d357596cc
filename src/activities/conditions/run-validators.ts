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
import { runFileValidator } from './file-validator.js';
import { runCommandValidator } from './command-validator.js';
import { restoreInterruptedSwap } from './baseline/code-at-base.js';
import { runTestIntegrityValidator } from './integrity/test-integrity-validator.js';
import { runBranchChangedValidator } from './branch-change/branch-changed-validator.js';
import type { NoChangeDeclaration, UnchangedBranch } from '../../contracts/no-change.js';
import type { PreExistingClaim } from '../../contracts/pre-existing-claims.js';
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
