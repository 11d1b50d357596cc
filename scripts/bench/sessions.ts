/**
 * Session scripts for the offline model server that drive the intents fixture agent
 * (test/fixtures/agents/intents) through exactly N steps:
 *
 *   1          initial.plan        → next     (hands off analysis.note)
 *   2 … N-2    continuation.build  → next     (routes back to itself)
 *   N-1        continuation.build  → handoff  → closure.done
 *   N          closure.done        → closing  (validator git-clean, local boundary hook)
 *
 * Every answer comes after `latencyMs`. With `toolOutputBytes`, each step first runs a
 * bash command printing that many bytes (one extra model turn), then answers.
 */
import { join } from 'node:path';
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

export const INTENTS_AGENT = join(PROJECT_ROOT, 'test', 'fixtures', 'agents', 'intents');
export const MIN_STEPS = 3;

export interface StepsSessionOptions {
  readonly steps: number;
  readonly latencyMs: number;
  readonly toolOutputBytes?: number;
}

function answer(
  id: string,
  promptContains: string[],
  output: Record<string, unknown>,
  latencyMs: number,
  turn?: number,
): SessionRule {
  return {
    id,
    when: { promptContains, ...(turn === undefined ? {} : { turn }) },
    respond: { json: output, delayMs: latencyMs },
  };
}

export function stepsSession(options: StepsSessionOptions): SessionScript {
  const { steps, latencyMs } = options;
  if (!Number.isInteger(steps) || steps < MIN_STEPS) throw new Error(`steps must be an integer >= ${MIN_STEPS}`);
  const big = options.toolOutputBytes ?? 0;
  const finalTurn = big > 0 ? 1 : undefined;
  const rules: SessionRule[] = [];
  if (big > 0) {
    // Printed by the agent's bash tool in the worktree; read-only, no redirection.
    const command = `head -c ${big} /dev/zero | tr '\\0' 'x'`;
    rules.push({
      id: 'print-output',
      when: { turn: 0 },
      respond: { text: 'Printing the output.', toolUse: [{ name: 'bash', input: { command } }], delayMs: latencyMs },
    });
  }
  rules.push(
    answer(
      'plan-next',
      ['Step initial.plan'],
      { stepId: 'initial.plan', summary: 'plan', next_action: { action: 'next' }, analysis: { note: 'BENCH-NOTE' } },
      latencyMs,
      finalTurn,
    ),
    answer(
      'build-handoff',
      [`Step continuation.build · Iteration ${steps - 1}`],
      { stepId: 'continuation.build', summary: 'built', next_action: { action: 'handoff' } },
      latencyMs,
      finalTurn,
    ),
    answer(
      'build-next',
      ['Step continuation.build'],
      { stepId: 'continuation.build', summary: 'building', next_action: { action: 'next' } },
      latencyMs,
      finalTurn,
    ),
    answer(
      'close',
      ['Step closure.done'],
      { stepId: 'closure.done', summary: 'done', next_action: { action: 'closing' } },
      latencyMs,
      finalTurn,
    ),
  );
  return { name: `bench: ${steps} steps at ${latencyMs} ms${big > 0 ? `, ${big} B tool output per step` : ''}`, rules };
}
