/**
 * Which commands the preflight runs: the command validators of every completion step, each
 * command line once (two steps checking `npm test` run it once), in declaration order.
 * File and test-integrity validators run no repository command: nothing to check. PURE.
 */
import type { CompletionStepDefinition, ValidatorDefinition } from '../../contracts/definition.js';
import { substituteParams } from '../conditions/substitute-params.js';
import { runsTests } from '../conditions/test-reports/runs-tests.js';

export interface PreflightCommand {
  readonly validator: string;
  readonly command: string;
  readonly definition: Extract<ValidatorDefinition, { type: 'command' }>;
  /** A test command (a baseline or a test-failure extractor): its failures are named. */
  readonly runsTests: boolean;
}

export function preflightCommands(
  completionSteps: readonly CompletionStepDefinition[],
  validators: Readonly<Record<string, ValidatorDefinition>>,
): PreflightCommand[] {
  const out: PreflightCommand[] = [];
  const seen = new Set<string>();
  for (const step of completionSteps) {
    for (const condition of step.conditions) {
      const definition = validators[condition.validator];
      if (definition?.type !== 'command') continue;
      const command = substituteParams(definition.command, condition.params);
      if (seen.has(command)) continue;
      seen.add(command);
      out.push({ validator: condition.validator, command, definition, runsTests: runsTests(definition) });
    }
  }
  return out;
}
