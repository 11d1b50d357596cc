/**
 * A closure step's deterministic subprocess (upstream `runner`, e.g. merger's
 * merge-pr script): no model call. Runs in the worktree through the CommandRunner
 * port, so it gets the same scrubbed environment as validators (no API key, no
 * GitHub token) and the same timeout handling. stdout is read as a JSON object; any
 * other stdout becomes `{ raw, parsed? }` as upstream. A non-zero exit is a result.
 */
import type { RunStepRunnerInput, RunStepRunnerOutput } from '../../contracts/activities.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../contracts/json.js';
import { CommandOutcomeKind, type CommandRunner } from '../process/command-runner.js';
import { shellQuote } from '../process/shell-quote.js';

export interface RunStepRunnerDeps {
  readonly commands: CommandRunner;
  readonly signal?: AbortSignal;
}

export function parseRunnerStdout(stdout: string): JsonObject {
  const raw = stdout.trim();
  let parsed: JsonValue | undefined;
  try {
    parsed = JSON.parse(raw) as JsonValue;
  } catch {
    parsed = undefined;
  }
  if (isJsonObject(parsed)) return parsed;
  return parsed === undefined ? { raw } : { raw, parsed };
}

export async function runStepRunner(deps: RunStepRunnerDeps, input: RunStepRunnerInput): Promise<RunStepRunnerOutput> {
  const command = [input.command, ...input.args].map(shellQuote).join(' ');
  const outcome = await deps.commands.run({
    command,
    cwd: input.worktreePath,
    timeoutMs: input.timeoutMs,
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
  });
  const output = parseRunnerStdout(outcome.stdout);
  const tail = outcome.stderr.trim().split('\n').slice(-3).join(' | ');
  switch (outcome.kind) {
    case CommandOutcomeKind.Exited:
      return {
        exitCode: outcome.exitCode ?? 0,
        timedOut: false,
        output,
        summary: `runner of step ${input.stepId} exited ${outcome.exitCode ?? 0}${outcome.exitCode === 0 || tail === '' ? '' : `: ${tail}`}`,
      };
    case CommandOutcomeKind.TimedOut:
      return {
        timedOut: true,
        output,
        summary: `runner of step ${input.stepId} timed out after ${input.timeoutMs} ms`,
      };
    case CommandOutcomeKind.Canceled:
      throw new Error(`runner of step ${input.stepId} was cancelled`);
    case CommandOutcomeKind.Crashed:
      return {
        timedOut: false,
        output,
        summary: `runner of step ${input.stepId} could not run: ${outcome.error ?? tail}`,
      };
  }
}
