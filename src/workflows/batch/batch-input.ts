/** Checks a batch's input before anything starts: a bad input fails the batch at once, naming each problem. */
import { ApplicationFailure } from '@temporalio/workflow';
import { MAX_BATCH_CONCURRENCY, type BatchInput } from '../../contracts/batch.js';
import { FailureType } from '../../contracts/failures.js';

export function validateInput(input: BatchInput): void {
  const problems: string[] = [];
  if (!Number.isInteger(input.concurrency) || input.concurrency < 1 || input.concurrency > MAX_BATCH_CONCURRENCY) {
    problems.push(
      `concurrency must be an integer from 1 to ${MAX_BATCH_CONCURRENCY}, got ${JSON.stringify(input.concurrency)}`,
    );
  }
  if (typeof input.agentName !== 'string' || input.agentName.trim() === '')
    problems.push('agentName must be a non-empty string');
  if (input.selection.kind === 'label' && input.selection.label.trim() === '')
    problems.push('selection.label must be non-empty');
  if (input.selection.kind === 'issues' && !input.selection.issues.every((n) => Number.isSafeInteger(n) && n > 0))
    problems.push('selection.issues must be positive integers');
  if (input.historyThreshold !== undefined && (!Number.isInteger(input.historyThreshold) || input.historyThreshold < 1))
    problems.push('historyThreshold must be a positive integer');
  if (problems.length > 0)
    throw ApplicationFailure.nonRetryable(`invalid batch input: ${problems.join('; ')}`, FailureType.ConfigInvalid);
}
