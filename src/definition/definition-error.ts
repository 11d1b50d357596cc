/**
 * The error a caller gets when it needs a definition and the files are invalid.
 * It carries every problem, not just the first, so one run of the tool lists them all.
 */
import { AgentError } from '../contracts/errors.js';
import { FailureType } from '../contracts/failures.js';
import { formatProblem, type Problem } from './problem.js';

export class DefinitionError extends AgentError {
  readonly problems: readonly Problem[];

  /** `subject` names what is invalid: an agent definition (the default) or a workflow file. */
  constructor(agentDir: string, problems: readonly Problem[], subject = 'agent definition') {
    const first = problems[0];
    const summary = first ? formatProblem(first) : 'no details';
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    super(FailureType.ConfigInvalid, `invalid ${subject} in ${agentDir}: ${summary}${more}`, {
      where: agentDir,
      expected: 'a definition without errors (run `npm run validate`)',
      // Kept small on purpose: this may land in workflow history.
      details: { problems: problems.slice(0, 50).map(formatProblem) },
    });
    this.name = 'DefinitionError';
    this.problems = problems;
  }

  /** One line per problem: `file#pointer: CODE message (expected ...)`. */
  format(): string {
    return this.problems.map(formatProblem).join('\n');
  }
}
