/**
 * What the repository should change so that runs leave nothing it does not want (build
 * outputs, setup's leftovers it does not ignore): said at start-run, and again where the
 * people who maintain the repository read, the pull request and the closing comment.
 * It comes from the worktree's environment report on this host, not from the workflow:
 * a run whose report is gone (a new host) says nothing rather than something stale.
 */
import type { BoundaryHookInput } from '../../contracts/activities.js';
import { readEnvironmentReport } from '../environment/environment-file.js';

/** The input with the worktree's setup advice, when its environment report has any. */
export function withSetupAdvice(input: BoundaryHookInput): BoundaryHookInput {
  const advice = readEnvironmentReport(input.worktreePath)?.repositoryAdvice;
  return advice === undefined || advice.length === 0 ? input : { ...input, setupAdvice: advice };
}

/** The advice as a list under `heading`; nothing without advice. */
export function setupAdviceLines(
  advice: readonly string[] | undefined,
  heading: string,
  text: (line: string) => string = (line) => line,
): string[] {
  if (advice === undefined || advice.length === 0) return [];
  return [heading, ...(heading.startsWith('#') ? [''] : []), ...advice.map((line) => `- ${text(line)}`)];
}
