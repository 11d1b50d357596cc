/** Shared fixtures for query-step tests: a temp git repo, a step input, a server. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QueryStepRequest } from '../../../src/contracts/activities.js';
import { anthropicLlmClient } from '../../../src/activities/model/anthropic-llm-client.js';
import type { QueryStepContext, QueryStepDeps } from '../../../src/activities/model/query-step.js';
import { createModelServer, type ModelServer } from '../../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';

export const STEP_SCHEMA = {
  type: 'object',
  required: ['stepId', 'summary', 'next_action'],
  additionalProperties: false,
  properties: {
    stepId: { type: 'string' },
    summary: { type: 'string' },
    next_action: {
      type: 'object',
      required: ['action'],
      additionalProperties: false,
      properties: { action: { type: 'string', enum: ['next', 'repeat'] } },
    },
  },
} as const;

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function makeRepo(): string {
  const dir = tempDir('step-repo-');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  writeFileSync(path.join(dir, 'sum.js'), 'export const sum = (a, b) => a - b;\n');
  execFileSync('git', ['add', '.'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: dir });
  return dir;
}

export function stepInput(overrides: Partial<QueryStepRequest> = {}): QueryStepRequest {
  return {
    workflowId: 'agent-issue-7',
    issue: 7,
    stepId: 'initial.issue',
    stepKind: 'work',
    iteration: 1,
    worktreePath: overrides.worktreePath ?? makeRepo(),
    artifactsDir: tempDir('step-artifacts-'),
    systemPrompt: 'You are a careful engineer.',
    issueContext: 'Issue #7: sum() subtracts instead of adding.',
    prompt: 'STEP initial.issue: fix the issue, then answer with JSON.',
    schema: {
      full: STEP_SCHEMA as unknown as QueryStepRequest['schema']['full'],
      api: STEP_SCHEMA as unknown as QueryStepRequest['schema']['api'],
    },
    model: { model: 'claude-sonnet-4-6', maxTokens: 4096, maxTurnsPerStep: 10 },
    readOnly: false,
    budget: {},
    ...overrides,
  };
}

export const GOOD_ANSWER = { stepId: 'initial.issue', summary: 'fixed sum', next_action: { action: 'next' } };

export async function withServer<T>(
  script: SessionScript,
  fn: (server: ModelServer, deps: QueryStepDeps) => Promise<T>,
): Promise<T> {
  const server = await createModelServer({ session: script });
  try {
    const deps: QueryStepDeps = { llm: anthropicLlmClient({ apiKey: 'offline', baseURL: server.url }), log: () => {} };
    return await fn(server, deps);
  } finally {
    await server.close();
  }
}

export interface RecordingCtx extends QueryStepContext {
  readonly beats: unknown[];
}

export function recordingCtx(
  options: { resumeFrom?: unknown; signal?: AbortSignal; crashAtTurn?: number } = {},
): RecordingCtx {
  const beats: unknown[] = [];
  return {
    beats,
    signal: options.signal ?? new AbortController().signal,
    ...(options.resumeFrom === undefined ? {} : { resumeFrom: options.resumeFrom }),
    heartbeat(details: unknown) {
      beats.push(details);
      const turn = (details as { turn?: number; v?: number }).turn;
      if (options.crashAtTurn !== undefined && (details as { v?: number }).v === 1 && turn === options.crashAtTurn) {
        throw new Error(`simulated worker crash after turn ${turn}`);
      }
    },
  };
}
