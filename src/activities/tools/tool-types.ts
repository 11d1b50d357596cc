/**
 * Shared shapes of the client-side tools the model may call in a step.
 * A tool never throws for a model mistake: it returns `isError: true` with a short
 * message the model can act on. It throws only for cancellation or harness faults.
 */
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { ToolStepKind } from '../../contracts/intents.js';
import type { GitHubToolBackend } from './github-tool-backend.js';

export const ToolName = {
  Bash: 'bash',
  Editor: 'str_replace_based_edit_tool',
  /** The model's plan (Claude Code's TodoWrite input); kept in the run's artifacts, runs nothing. */
  Todo: 'TodoWrite',
  /** Harness-side GitHub access (read; comment and labels in closure): github-tool.ts. */
  GitHub: 'github',
  /** A question for the people on the issue: ends the step; the run waits for the answer (ask-tool.ts). */
  Ask: 'ask',
} as const;
export type ToolName = (typeof ToolName)[keyof typeof ToolName];

export interface ToolResult {
  readonly content: string;
  readonly isError: boolean;
}

export type LogFn = (level: 'info' | 'warn', message: string, data?: Readonly<Record<string, unknown>>) => void;

export interface ToolLimits {
  /** Per bash command; default 120 s. */
  readonly bashTimeoutMs: number;
  /** Outputs longer than this go to the artifact store; the model gets a head+tail view. */
  readonly maxOutputChars: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = { bashTimeoutMs: 120_000, maxOutputChars: 16_000 };

export interface ToolContext {
  /** Absolute path; every tool is confined to it. */
  readonly worktreePath: string;
  readonly stepKind: ToolStepKind;
  readonly readOnly: boolean;
  readonly signal: AbortSignal;
  readonly store: ArtifactStore;
  readonly limits: ToolLimits;
  readonly log: LogFn;
  /** Extra variables for the bash environment (e.g. git identity); never secrets. */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** Where the tools record what they may have changed (the step's checkpoint reads it). */
  readonly changes?: ChangedPaths;
  /** The run this step belongs to: where the todo plan is kept, which issue github acts on. */
  readonly run?: ToolRunContext;
}

export interface ToolRunContext {
  readonly workflowId: string;
  readonly issue: number;
  readonly artifactsDir: string;
  /** Absent: the agent has no GitHub integration and no github tool is offered. */
  readonly github?: GitHubToolBackend;
}

/**
 * What a step's tools may have changed in the worktree: the paths the editor wrote, or
 * "unknown" once any bash command ran (a shell can touch anything). The step's checkpoint
 * reads it to stage only those paths instead of scanning the whole worktree (on a
 * 100 000-file repository a full scan is git's floor, paid once per step). Unknown is
 * always the safe answer. Made by tool-dispatcher's `createChangedPaths`.
 */
export interface ChangedPaths {
  /** A path (relative to the worktree) a tool wrote. */
  add(relative: string): void;
  /** Something may have changed that the record cannot name (bash ran, a step resumed). */
  markUnknown(): void;
  /** The paths written, in first-write order; undefined when unknown. */
  list(): readonly string[] | undefined;
}

export const defaultLog: LogFn = (level, message, data) => {
  const line = `[tools] ${message}${data ? ` ${JSON.stringify(data)}` : ''}`;
  if (level === 'warn') console.warn(line);
};
