/**
 * Shared by the baseline tests: a state dir of their own (the baseline cache lives
 * there), issue branches cut from main with main recorded as their base, removed after,
 * and the one completion step whose `tests` validator they run.
 */
import { after, before } from 'node:test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConditionResult } from '../../../../src/contracts/activities.js';
import type { CompletionStepDefinition, ValidatorDefinition } from '../../../../src/contracts/definition.js';
import { buildRetryPrompt } from '../../../../src/activities/conditions/retry-prompt/build-retry-prompt.js';
import { BUILTIN_FAILURE_PATTERNS } from '../../../../src/definition/normalise/builtin-validators.js';
import { PROJECT_ROOT } from '../../../../src/host/project-root.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';

/** Sets ISSUE_AGENT_STATE_DIR to a temp dir for the file; restores it and removes every repo after. */
export function useBaselineState(): {
  issueBranch(issue: number, files: Record<string, string>): Promise<TempGitRepo>;
} {
  const repos: TempGitRepo[] = [];
  let stateDir = '';
  const previousState = process.env['ISSUE_AGENT_STATE_DIR'];
  before(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'agent-state-'));
    process.env['ISSUE_AGENT_STATE_DIR'] = stateDir;
  });
  after(async () => {
    if (previousState === undefined) delete process.env['ISSUE_AGENT_STATE_DIR'];
    else process.env['ISSUE_AGENT_STATE_DIR'] = previousState;
    await Promise.all(repos.map((r) => r.cleanup()));
    await rm(stateDir, { recursive: true, force: true });
  });
  return {
    /** A repo whose main holds `files`, checked out on agent/issue-N with main as its recorded base. */
    async issueBranch(issue, files) {
      const repo = await makeTempGitRepo({ files });
      repos.push(repo);
      await repo.git('checkout', '-qb', `agent/issue-${issue}`);
      await repo.git('config', `branch.agent/issue-${issue}.agentBase`, 'main');
      return repo;
    },
  };
}

/** The `tests` command validator that names failures from the runner's output. */
export function testsValidator(
  command: string,
  baseline?: 'ignore' | 'require-fixed',
): Record<string, ValidatorDefinition> {
  return {
    tests: {
      type: 'command',
      command,
      successWhen: 'exitCode:0',
      failurePattern: 'test-failed',
      extractParams: { failedTests: 'parseTestOutput' },
      ...(baseline ? { baseline } : {}),
    },
  };
}

export const CHECKS_STEP: CompletionStepDefinition = {
  stepId: 'closure.issue',
  name: 'checks',
  c2: 'retry',
  c3: 'issue',
  conditions: [{ validator: 'tests', params: {} }],
  onFail: { action: 'retry', maxAttempts: 3 },
};

/** The default agent's retry prompt for CHECKS_STEP's failed results, as the model would get it. */
export async function retryPrompt(failed: readonly ConditionResult[]): Promise<string> {
  const prompt = await buildRetryPrompt(
    { readFile: (p) => readFile(p, 'utf8').catch(() => undefined) },
    {
      promptsDir: join(PROJECT_ROOT, 'prompts'),
      c1: 'steps',
      completionStep: CHECKS_STEP,
      failurePatterns: BUILTIN_FAILURE_PATTERNS,
      failed,
    },
  );
  return prompt.text;
}
