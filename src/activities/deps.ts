/**
 * The ports activities depend on. `createDefaultDeps` (used by worker.ts only) builds
 * the real adapters; tests pass fakes at these ports instead of patching globals.
 */
import { execFileSync } from 'node:child_process';
import type { CommandRunner } from './process/command-runner.js';
import { createSpawnerCommandRunner } from './process/spawner-command-runner.js';
import { sharedSpawner } from './process/spawner/process-spawner.js';
import { harnessGitArgs, harnessGitEnv } from './workspace/git/git.js';
import { boundaryDepsFromEnv, type BoundaryDeps } from './deliver/run-boundary-hook.js';
import type { IssueSourceFactory } from './issues/issue-source.js';
import type { DefinitionSnapshots } from './definition-snapshot/definition-snapshots.js';
import { createAnthropicLlmClient, preloadAnthropicSdk } from './model/anthropic-llm-client.js';
import type { LlmClient } from './model/llm-client.js';
import { createGovernedLlmClient, sharedRateGovernor } from './model/rate-governor.js';
import { redactorForEnv, type Redact } from './edge/secret-redactor.js';

export interface ActivityDeps {
  /** Built lazily so a worker without model credentials can still serve other activities. */
  readonly llm: () => LlmClient;
  readonly commands: CommandRunner;
  readonly issueSource: IssueSourceFactory;
  /** Boundary hooks (local and GitHub); GITHUB_TOKEN lives only in here. */
  readonly boundary: BoundaryDeps;
  /** Non-secret environment for the agent's bash (a git identity to commit with). */
  readonly bashEnv: Readonly<Record<string, string>>;
  /** This host's task queue for worktree-bound activities (set by the worker runtime). */
  readonly hostTaskQueue?: string;
  /** The run's definition snapshots; default: the store under the worker's state dir. */
  readonly snapshots?: DefinitionSnapshots;
  /** This worker's state dir (`--state-dir`): clones of remote repositories; default from the environment. */
  readonly stateDir?: string;
  /** Removes the worker's secrets from failures, artifacts and logs; default: from process.env. */
  readonly redact?: Redact;
  /**
   * Starts loading in the background what the first activities need but polling does not
   * (the model SDK); the worker calls it while it waits for its workflow thread.
   */
  readonly warmUp?: () => void;
}

function gitConfig(key: string): string | undefined {
  try {
    return (
      execFileSync('git', harnessGitArgs(['config', '--get', key]), {
        encoding: 'utf8',
        env: harnessGitEnv(),
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** The identity the agent commits with: the worker's git identity, else a neutral one. */
export function agentGitIdentity(): Record<string, string> {
  const name = gitConfig('user.name') ?? 'Issue Agent';
  const email = gitConfig('user.email') ?? 'issue-agent@localhost';
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
}

/**
 * The real adapters. Every model client of the process shares one rate governor, so
 * concurrent runs slow down together instead of turning into a 429 storm.
 */
export function createDefaultDeps(env: NodeJS.ProcessEnv = process.env): ActivityDeps {
  let llm: LlmClient | undefined;
  const boundary = boundaryDepsFromEnv(env);
  return {
    llm: () => (llm ??= createGovernedLlmClient(createAnthropicLlmClient(env), sharedRateGovernor(env))),
    commands: createSpawnerCommandRunner(),
    issueSource: boundary.issueSource,
    boundary,
    bashEnv: agentGitIdentity(),
    redact: redactorForEnv(env),
    warmUp: () => {
      preloadAnthropicSdk();
      // The first git call of a resumed step would otherwise wait for the helper's own start.
      sharedSpawner().warm();
    },
  };
}
