/**
 * A session script for the intents fixture agent whose steps each edit one file through
 * the editor tool (a line inserted at the top of README.md), the work a step of a real
 * run does most; the step before the closure commits everything with bash (the closure's
 * git-clean condition wants a clean tree), then the closure closes. Every answer comes
 * after `latencyMs`.
 *
 *   1          initial.plan        edit, → next
 *   2 … N-2    continuation.build  edit, → next
 *   N-1        continuation.build  bash commit, → handoff → closure.done
 *   N          closure.done        → closing
 */
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import { MIN_STEPS } from './sessions.js';

export const EDITED_FILE = 'README.md';

function edit(id: string, step: string, latencyMs: number): SessionRule {
  return {
    id,
    when: { promptContains: [step], turn: 0 },
    respond: {
      text: 'Editing one file.',
      toolUse: [
        {
          name: 'str_replace_based_edit_tool',
          input: { command: 'insert', path: EDITED_FILE, insert_line: 0, insert_text: 'edited by a bench step' },
        },
      ],
      delayMs: latencyMs,
    },
  };
}

function answer(
  id: string,
  step: string,
  output: Record<string, unknown>,
  latencyMs: number,
  turn?: number,
): SessionRule {
  return {
    id,
    when: { promptContains: [step], ...(turn === undefined ? {} : { turn }) },
    respond: { json: output, delayMs: latencyMs },
  };
}

export function editingSession(steps: number, latencyMs: number): SessionScript {
  if (!Number.isInteger(steps) || steps < MIN_STEPS + 1)
    throw new Error(`steps must be an integer >= ${MIN_STEPS + 1}`);
  const last = `Step continuation.build · Iteration ${steps - 1}`;
  const commit = 'git add -A && git -c user.name=Bench -c user.email=bench@example.invalid commit -q -m bench';
  const rules: SessionRule[] = [
    {
      id: 'commit',
      when: { promptContains: [last], turn: 0 },
      respond: { text: 'Committing.', toolUse: [{ name: 'bash', input: { command: commit } }], delayMs: latencyMs },
    },
    answer(
      'build-handoff',
      last,
      { stepId: 'continuation.build', summary: 'built', next_action: { action: 'handoff' } },
      latencyMs,
      1,
    ),
    edit('plan-edit', 'Step initial.plan', latencyMs),
    answer(
      'plan-next',
      'Step initial.plan',
      { stepId: 'initial.plan', summary: 'plan', next_action: { action: 'next' }, analysis: { note: 'BENCH-NOTE' } },
      latencyMs,
      1,
    ),
    edit('build-edit', 'Step continuation.build', latencyMs),
    answer(
      'build-next',
      'Step continuation.build',
      { stepId: 'continuation.build', summary: 'building', next_action: { action: 'next' } },
      latencyMs,
      1,
    ),
    answer(
      'close',
      'Step closure.done',
      { stepId: 'closure.done', summary: 'done', next_action: { action: 'closing' } },
      latencyMs,
    ),
  ];
  return { name: `bench: ${steps} editing steps at ${latencyMs} ms`, rules };
}
