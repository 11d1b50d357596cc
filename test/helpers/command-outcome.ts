/**
 * CommandOutcomes for fake CommandRunners: what a command that exited, or was killed
 * for its time, reports (its output interleaved in `all`, as the real runner gives it).
 */
import type { CommandOutcome } from '../../src/activities/process/command-runner.js';

export function exited(exitCode: number, all = ''): CommandOutcome {
  return { kind: 'exited', exitCode, stdout: all, stderr: '', all, durationMs: 1 };
}

export function timedOut(all = ''): CommandOutcome {
  return { kind: 'timedOut', stdout: all, stderr: '', all, durationMs: 1, error: 'timed out' };
}
