/**
 * The owner shape every session shares: a named transition changes the state, a taker
 * changes it and hands out what it took, and every change calls the session's hook.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StateOwner } from '../../../src/workflows/session/state-owner.js';

interface Counter {
  readonly n: number;
  readonly log: readonly string[];
}

const added = (s: Counter, k: number): Counter => ({ ...s, n: s.n + k });
const takeLog = (s: Counter): { state: Counter; log: readonly string[] } => ({ state: { ...s, log: [] }, log: s.log });
const noted = (s: Counter, line: string, times: number): Counter => ({
  ...s,
  log: [...s.log, ...Array.from({ length: times }, () => line)],
});

class CounterSession extends StateOwner<Counter> {
  changes = 0;
  constructor() {
    super({ n: 0, log: [] });
  }
  protected override changed(): void {
    this.changes += 1;
  }
}

test('apply and take change the state through named transitions; each change calls the hook', () => {
  const session = new CounterSession();
  const before = session.state;
  session.apply(added, 2);
  session.apply(noted, 'x', 2);
  assert.deepEqual(session.state, { n: 2, log: ['x', 'x'] });
  assert.deepEqual(before, { n: 0, log: [] }, 'the old state is a value: untouched');
  assert.deepEqual(session.take(takeLog), { log: ['x', 'x'] });
  assert.deepEqual(session.state, { n: 2, log: [] });
  assert.equal(session.changes, 3);
});

test('the setter is not part of the session', () => {
  const session = new CounterSession() as unknown as Record<string, unknown>;
  assert.equal(session['update'], undefined);
  assert.equal(session['setState'], undefined);
});
