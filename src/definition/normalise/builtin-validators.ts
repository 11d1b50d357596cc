/**
 * Validators and failure patterns available without declaring them in the registry.
 * `git-clean` runs a fixed command, `test-integrity` inspects the run's diff and
 * `branch-changed` whether there is one (no command; an agent opts in by naming them in a
 * completion step); the others take their command from agent.json
 * `runner.validation.commands`, because how to type-check or test is the target
 * repository's business. A registry entry with the same id replaces a built-in.
 */
import type { BaselineMode, FailurePatternDefinition, ValidatorDefinition } from '../../contracts/definition.js';
import type { RawValidationCommands } from '../load/raw-files.js';
import { VERDICT_NOT_MET } from '../../contracts/completion-types.js';
import { NO_CHANGE_PATTERN } from '../../contracts/no-change.js';
import { UNCLASSIFIED_PATTERN } from '../../contracts/pre-existing-claims.js';
import { FIXED_IN_TESTS_ONLY_PATTERN, TESTS_NOT_RUN_PATTERN } from '../../contracts/tests-not-run.js';

interface CommandBuiltin {
  readonly commandKey: keyof RawValidationCommands;
  readonly failurePattern: string;
  readonly extractParams: Readonly<Record<string, string>>;
  readonly baseline?: BaselineMode;
}

const GIT_CLEAN: ValidatorDefinition = {
  type: 'command',
  command: 'git status --porcelain',
  successWhen: 'empty',
  failurePattern: 'git-dirty',
  extractParams: { changedFiles: 'parseChangedFiles', untrackedFiles: 'parseUntrackedFiles' },
};

/** Checks the run's diff for weakened tests (src/activities/conditions/integrity). */
const TEST_INTEGRITY: ValidatorDefinition = { type: 'test-integrity', failurePattern: 'test-weakened' };

/** The no-op guard: the branch has a change against its base (src/activities/conditions/branch-change). */
const BRANCH_CHANGED: ValidatorDefinition = { type: 'branch-changed', failurePattern: NO_CHANGE_PATTERN };

const COMMAND_BUILTINS: Readonly<Record<string, CommandBuiltin>> = {
  'type-check': { commandKey: 'typeCheck', failurePattern: 'type-error', extractParams: { errors: 'parseTypeErrors' } },
  tests: {
    commandKey: 'test',
    failurePattern: 'test-failed',
    extractParams: { failedTests: 'parseTestOutput' },
    baseline: 'ignore',
  },
  lint: { commandKey: 'lint', failurePattern: 'lint-error', extractParams: { errors: 'parseLintErrors' } },
  'format-check': {
    commandKey: 'format',
    failurePattern: 'format-error',
    extractParams: { files: 'parseFormatOutput' },
  },
};

export interface BuiltinValidators {
  readonly defined: Record<string, ValidatorDefinition>;
  /** id → agent.json pointer of the missing command. */
  readonly unconfigured: Record<string, string>;
}

export function builtinValidators(commands: RawValidationCommands): BuiltinValidators {
  const defined: Record<string, ValidatorDefinition> = {
    'git-clean': GIT_CLEAN,
    'test-integrity': TEST_INTEGRITY,
    'branch-changed': BRANCH_CHANGED,
  };
  const unconfigured: Record<string, string> = {};
  for (const [id, builtin] of Object.entries(COMMAND_BUILTINS)) {
    const command = commands[builtin.commandKey];
    if (command === undefined) {
      unconfigured[id] = `/runner/validation/commands/${builtin.commandKey}`;
      continue;
    }
    defined[id] = {
      type: 'command',
      command,
      successWhen: 'exitCode:0',
      failurePattern: builtin.failurePattern,
      extractParams: builtin.extractParams,
      ...(builtin.baseline === undefined ? {} : { baseline: builtin.baseline }),
    };
  }
  return { defined, unconfigured };
}

export const BUILTIN_FAILURE_PATTERNS: Readonly<Record<string, FailurePatternDefinition>> = {
  'git-dirty': {
    description: 'The working tree has uncommitted or untracked changes.',
    edition: 'failed',
    adaptation: 'git-dirty',
    params: ['changedFiles', 'untrackedFiles'],
  },
  'test-weakened': {
    description: 'Tests were deleted, skipped or loosened instead of the code being fixed.',
    edition: 'failed',
    adaptation: 'test-weakened',
    params: ['file', 'line', 'finding', 'findings'],
  },
  [NO_CHANGE_PATTERN]: {
    description: 'The branch has no change against its base, or has changes the closure declared unneeded.',
    edition: 'failed',
    adaptation: NO_CHANGE_PATTERN,
    params: ['baseCommit', 'commits', 'files', 'declared'],
  },
  'type-error': {
    description: 'The type check failed.',
    edition: 'failed',
    adaptation: 'type-error',
    params: ['errors'],
  },
  'test-failed': {
    description: 'Tests failed.',
    edition: 'failed',
    adaptation: 'test-failed',
    params: ['failedTests', 'regressions', 'preExisting', 'fixed', 'baseCommit'],
  },
  /** A test condition's, when its command ran fewer tests than on the base, or none anything saw. */
  [TESTS_NOT_RUN_PATTERN]: {
    description: 'The test command ran fewer tests than on the base commit, or none that its output or reports show.',
    edition: 'failed',
    adaptation: TESTS_NOT_RUN_PATTERN,
    params: ['baseCommit', 'testsRunOnBase', 'testsRun'],
  },
  /** A test condition's, when the tests red on the base pass now because the tests changed, not the code. */
  [FIXED_IN_TESTS_ONLY_PATTERN]: {
    description:
      "The tests failing on the base commit pass now, but the branch changed only test files, they pass with its tests on the base code too, or its code still fails the base's version of them.",
    edition: 'failed',
    adaptation: FIXED_IN_TESTS_ONLY_PATTERN,
    params: ['baseCommit', 'fixed', 'testFiles', 'codeFiles', 'failingWithBaseTests'],
  },
  /** A test condition's, when only tests failing on the base that the closure did not classify block. */
  [UNCLASSIFIED_PATTERN]: {
    description: 'Tests failing on the base commit too, not classified by the closure as unrelated.',
    edition: 'failed',
    adaptation: UNCLASSIFIED_PATTERN,
    params: ['unclassified', 'preExisting', 'fixed', 'baseCommit'],
  },
  'lint-error': {
    description: 'The linter reported errors.',
    edition: 'failed',
    adaptation: 'lint-error',
    params: ['errors'],
  },
  'format-error': {
    description: 'Files are not formatted.',
    edition: 'failed',
    adaptation: 'format-error',
    params: ['files'],
  },
  /** Not a validator's: stage 3 of the Completion loop, when the verdict did not accept a validated closing. */
  [VERDICT_NOT_MET]: {
    description: 'The completion type did not accept the closing yet (its criterion is not met).',
    edition: 'failed',
    adaptation: VERDICT_NOT_MET,
    params: ['reason', 'verdict', 'nextStep'],
  },
};
