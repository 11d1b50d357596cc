/**
 * The error of a failed setup step: ENVIRONMENT_FAILED naming the command, how it
 * ended (exit code or timeout) and the last lines of its output, which is where npm,
 * pip, go and cargo say why. Not retryable: the same lockfile fails the same way, and
 * no model request is made before it is fixed.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { stripAnsi } from '../conditions/strip-ansi.js';
import type { PlannedStep } from './planned-step.js';
import type { CommandOutcome } from '../process/command-runner.js';

const LAST_LINES = 20;
const LAST_CHARS = 3000;

/** The last non-empty lines of an output, bounded, without colour codes (Maven ends with a line of them). */
export function lastLines(output: string, count = LAST_LINES): string {
  const lines = stripAnsi(output)
    .split('\n')
    .filter((l) => l.trim() !== '');
  const tail = lines.slice(-count).join('\n');
  return tail.length > LAST_CHARS ? `…${tail.slice(-LAST_CHARS)}` : tail;
}

export function howItEnded(result: CommandOutcome, timeoutMs: number): string {
  switch (result.kind) {
    case 'exited':
      return `exited with code ${result.exitCode}`;
    case 'timedOut':
      return `timed out after ${Math.round(timeoutMs / 1000)} s and was killed`;
    case 'canceled':
      return 'was canceled';
    case 'crashed':
      return `was killed or could not be started${result.error ? ` (${result.error})` : ''}`;
  }
}

export function setupFailure(options: {
  readonly step: PlannedStep;
  readonly result: CommandOutcome;
  readonly timeoutMs: number;
  readonly worktreePath: string;
}): AgentError {
  const { step, result } = options;
  const ended = howItEnded(result, options.timeoutMs);
  const tail = lastLines(result.all);
  const where = step.id.startsWith('setup-')
    ? `.agent/config.json#/commands/setup/${step.id.slice('setup-'.length)}`
    : step.command;
  return new AgentError(
    FailureType.EnvironmentFailed,
    `environment setup failed: \`${step.command}\` ${ended} in ${options.worktreePath} (${step.reason})` +
      (tail ? `\nlast lines:\n${tail}` : '\n(no output)'),
    {
      where,
      expected: 'exit code 0 (fix the command or set commands.setup in .agent/config.json)',
      details: {
        command: step.command,
        ecosystem: step.ecosystem,
        ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
        timedOut: result.kind === 'timedOut',
        lastLines: tail,
      },
    },
  );
}
