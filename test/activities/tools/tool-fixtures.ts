/** A ToolContext over a temp worktree for tool tests. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createArtifactStore } from '../../../src/activities/artifacts/artifact-store.js';
import { DEFAULT_TOOL_LIMITS, type ToolContext } from '../../../src/activities/tools/tool-types.js';

export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  const worktreePath = overrides.worktreePath ?? mkdtempSync(path.join(os.tmpdir(), 'tools-wt-'));
  return {
    worktreePath,
    stepKind: 'work',
    readOnly: false,
    signal: new AbortController().signal,
    store: createArtifactStore(mkdtempSync(path.join(os.tmpdir(), 'tools-art-'))),
    limits: DEFAULT_TOOL_LIMITS,
    log: () => {},
    ...overrides,
  };
}
