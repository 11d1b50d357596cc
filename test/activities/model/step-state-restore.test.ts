/**
 * A retried step whose earlier attempt died before its first checkpoint finds only the
 * keep-alive details it sent: it starts fresh without a warning (the worker printed
 * "heartbeat details are not a checkpoint" on every such resume). Details of another
 * shape still warn.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noCheckpointYet, restoreState } from '../../../src/activities/model/step-state.js';
import type { LlmMessage } from '../../../src/activities/model/llm-client.js';

const first = { role: 'user', content: [{ type: 'text', text: 'Step s' }] } as unknown as LlmMessage;

test('keep-alive details resume quietly from the start; foreign details warn', async () => {
  const warnings: string[] = [];
  const log = (level: 'info' | 'warn', message: string) => {
    if (level === 'warn') warnings.push(message);
  };
  const kept = await restoreState(noCheckpointYet('s'), 's', first, {} as never, log);
  assert.equal(kept.turn, 0);
  assert.deepEqual(warnings, []);
  await restoreState({ phase: 'something else' }, 's', first, {} as never, log);
  await restoreState(noCheckpointYet('another step'), 's', first, {} as never, log);
  assert.equal(warnings.length, 2);
});
