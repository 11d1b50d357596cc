/**
 * A command-free validator (branch-changed, test-integrity) checked through runValidators
 * on a real issue branch: temp repositories on `agent/issue-1` whose base is recorded as
 * prepareWorkspace records it (removed after the test file), a command runner the
 * validator must never call, the closure step with its one condition, and the default
 * agent's retry prompt for what failed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after } from 'node:test';
import { buildRetryPrompt } from '../../../src/activities/conditions/retry-prompt/build-retry-prompt.js';
import type { CommandRunner } from '../../../src/activities/process/command-runner.js';
import type { ConditionResult } from '../../../src/contracts/activities.js';
import type { CompletionStepDefinition } from '../../../src/contracts/definition.js';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

export interface IssueBranchCheck {
  /** Rejects every command: the validator must not run one. */
  readonly noCommands: CommandRunner;
  /** closure.issue with `validator` as its one condition, retried up to 3 times. */
  readonly step: CompletionStepDefinition;
  /** A repository of `files` on main (removed after the file), checked out on agent/issue-1 based on main. */
  issueBranch(files: Record<string, string>): Promise<TempGitRepo>;
  /** A repository of `files` (default: makeTempGitRepo's) on main, no issue branch (removed after the file). */
  plainRepo(files?: Record<string, string>): Promise<TempGitRepo>;
  /** The default agent's retry prompt after `failed` in `completionStep` (default: `step`). */
  retryPrompt(
    failed: readonly ConditionResult[],
    completionStep?: CompletionStepDefinition,
  ): Promise<{ source: string; text: string }>;
}

export function issueBranchCheck(validator: string): IssueBranchCheck {
  const repos: TempGitRepo[] = [];
  after(async () => Promise.all(repos.map((r) => r.cleanup())));
  const step: CompletionStepDefinition = {
    stepId: 'closure.issue',
    name: 'checks',
    c2: 'retry',
    c3: 'issue',
    conditions: [{ validator, params: {} }],
    onFail: { action: 'retry', maxAttempts: 3 },
  };
  const plainRepo = async (files?: Record<string, string>): Promise<TempGitRepo> => {
    const repo = await makeTempGitRepo(files === undefined ? {} : { files });
    repos.push(repo);
    return repo;
  };
  return {
    noCommands: {
      run: () => Promise.reject(new Error(`${validator} must not run a command`)),
    } as unknown as CommandRunner,
    step,
    plainRepo,
    async issueBranch(files) {
      const repo = await plainRepo(files);
      await repo.git('checkout', '-qb', 'agent/issue-1');
      await repo.git('config', 'branch.agent/issue-1.agentBase', 'main');
      return repo;
    },
    async retryPrompt(failed, completionStep = step) {
      const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
      return buildRetryPrompt(
        { readFile: (p) => readFile(p, 'utf8').catch(() => undefined) },
        {
          promptsDir: join(PROJECT_ROOT, 'prompts'),
          c1: definition.c1,
          completionStep,
          failurePatterns: definition.failurePatterns,
          failed,
        },
      );
    },
  };
}
