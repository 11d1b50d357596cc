/** Runs a closure's validators (each with no params) in a repository, as the completion loop does. */
import type { ValidationReport } from '../../src/contracts/activities.js';
import type { ConditionRef, ValidatorDefinition } from '../../src/contracts/definition.js';
import { runValidators } from '../../src/activities/conditions/run-validators.js';
import type { CommandRunner } from '../../src/activities/process/command-runner.js';

export function runClosure(
  commands: CommandRunner,
  worktreePath: string,
  validators: Record<string, ValidatorDefinition>,
): Promise<ValidationReport> {
  const conditions: ConditionRef[] = Object.keys(validators).map((validator) => ({ validator, params: {} }));
  return runValidators(
    { commands },
    {
      worktreePath,
      completionStep: {
        stepId: 'closure.issue',
        name: 'c',
        c2: 'retry',
        c3: 'issue',
        conditions,
        onFail: { action: 'retry', maxAttempts: 3 },
      },
      validators,
    },
  );
}
