/**
 * The Completion loop's stage 2 as activity inputs and outputs: running validators in
 * the worktree, what each condition found, the retry prompt built from a failure, and
 * the git-state guard that runs with them.
 */
import type { WorktreeCheckpointRequest } from './worktree-checkpoint.js';
import type { ArtifactRef } from './activities.js';
import type {
  CompletionStepDefinition,
  DefinitionSnapshotRef,
  FailurePatternDefinition,
  ValidatorDefinition,
} from './definition.js';
import type { JsonValue } from './json.js';
import type { NoChangeDeclaration, UnchangedBranch } from './no-change.js';
import type { PreExistingClaim } from './pre-existing-claims.js';

export interface RunValidatorsInput {
  readonly worktreePath: string;
  /** With workflowId: where each command's full output is saved (validatorArtifactDir). */
  readonly artifactsDir?: string;
  readonly workflowId?: string;
  readonly completionStep: CompletionStepDefinition;
  readonly validators: Readonly<Record<string, ValidatorDefinition>>;
  /**
   * The issue's title and body (untrusted). The test-integrity validator allows a
   * change the issue asks for; without it every finding blocks.
   */
  readonly issueText?: string;
  /** The issue's labels: `agent:tests-only` (TESTS_ONLY_LABEL) lets a fix be made in the tests alone. */
  readonly issueLabels?: readonly string[];
  /**
   * The worktree checkpoint the files must be at (the closing step's): restored first when
   * the run was reset. Validators record no checkpoint of their own.
   */
  readonly checkpoint?: WorktreeCheckpointRequest;
  /** The closure's no-change declaration (contracts/no-change.ts), for the `branch-changed` condition. */
  readonly noChange?: NoChangeDeclaration;
  /**
   * The closure's classification of tests failing on the base as unrelated
   * (contracts/pre-existing-claims.ts), for a test condition judged against its baseline.
   */
  readonly preExistingClaims?: readonly PreExistingClaim[];
}

export interface ConditionResult {
  readonly validator: string;
  readonly passed: boolean;
  readonly command?: string;
  readonly exitCode?: number;
  /** One or two lines: what was seen. */
  readonly summary: string;
  readonly failurePattern?: string;
  readonly params: Readonly<Record<string, JsonValue>>;
  /** Exit 126/127 or a permission error: retrying cannot help. */
  readonly unrecoverable: boolean;
  readonly output?: ArtifactRef;
}

export interface ValidationReport {
  readonly passed: boolean;
  readonly results: readonly ConditionResult[];
  /** As QueryStepOutput.gitRestored: validators run code the agent wrote. */
  readonly gitRestored?: readonly string[];
  /** Set when a `branch-changed` condition confirmed the closure's no-change declaration. */
  readonly unchanged?: UnchangedBranch;
  /**
   * What was undone in the worktree before the validators judged it, one line each: index
   * bits that hid changes, ignored files the agent's commands wrote, back-dated sources
   * (activities/conditions/judged-tree). Absent when there was nothing.
   */
  readonly treeNotes?: readonly string[];
}

export interface BuildRetryPromptInput {
  readonly promptsDir: string;
  /** The run's definition snapshot: templates are read from it, never from the agent directory. */
  readonly snapshot?: DefinitionSnapshotRef;
  readonly c1: string;
  readonly completionStep: CompletionStepDefinition;
  readonly failurePatterns: Readonly<Record<string, FailurePatternDefinition>>;
  readonly failed: readonly ConditionResult[];
}
