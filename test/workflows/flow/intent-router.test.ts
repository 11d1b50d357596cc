/**
 * The Workflow Router, pure (seed 004 §3-4): every intent of every kind, as the
 * behaviour table of docs/registry-reference.md §3.3 says. The table below IS that
 * table: the last test reads the docs and fails when the two disagree.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { StepDefinition } from '../../../src/contracts/definition.js';
import type { Intent } from '../../../src/contracts/intents.js';
import { routeIntent, type Route } from '../../../src/workflows/flow/intent-router.js';
import { makeDefinition, makeStep } from './step-fixtures.js';

const work = makeStep('continuation.work', 'work', {
  next: { target: 'verification.check' },
  handoff: { target: 'closure.done' },
  jump: { target: 'initial.plan' },
});
const plan = makeStep('initial.plan', 'work', { handoff: { target: 'continuation.work' } });
const check = makeStep('verification.check', 'verification', {
  next: { condition: 'verdict', targets: { ok: 'closure.done', default: 'continuation.work' } },
  escalate: { target: 'continuation.work' },
});
const closure = makeStep('closure.done', 'closure', {
  closing: { target: null },
  repeat: { target: 'continuation.work' },
});
const bare = makeStep('closure.bare', 'closure', { closing: { target: null } });
const definition = makeDefinition([work, plan, check, closure, bare]);

function route(
  step: StepDefinition,
  intent: Intent,
  extra: { target?: string; handoff?: Record<string, string> } = {},
) {
  return routeIntent({
    definition,
    step,
    intent,
    handoff: extra.handoff ?? {},
    ...(extra.target ? { target: extra.target } : {}),
  });
}

function show(r: Route): string {
  switch (r.kind) {
    case 'goto':
      return `go to ${r.stepId}${r.warnings.length > 0 ? ' (warning)' : ''}`;
    case 'closing':
      return 'Completion loop';
    case 'abort':
      return 'run fails (ABORTED)';
    case 'error':
      return 'run fails (FAILED_STEP_ROUTING)';
  }
}

/** [step, intent, case, expected]: the rows of the docs' table, in its order. */
const TABLE: ReadonlyArray<readonly [StepDefinition, Intent, string, string, () => Route]> = [
  [work, 'next', '`{ target }`', 'go to verification.check', () => route(work, 'next')],
  [work, 'repeat', 'no transition', 'go to continuation.work', () => route(work, 'repeat')],
  [
    work,
    'jump',
    'output names an existing step',
    'go to closure.done',
    () => route(work, 'jump', { target: 'closure.done' }),
  ],
  [
    work,
    'jump',
    'output names an unknown step',
    'run fails (FAILED_STEP_ROUTING)',
    () => route(work, 'jump', { target: 'nope' }),
  ],
  [work, 'jump', 'no target in the output', 'go to initial.plan', () => route(work, 'jump')],
  [work, 'handoff', '`{ target }`', 'go to closure.done', () => route(work, 'handoff')],
  [plan, 'handoff', 'from an initial step', 'go to continuation.work (warning)', () => route(plan, 'handoff')],
  [work, 'closing', 'any', 'run fails (FAILED_STEP_ROUTING)', () => route(work, 'closing')],
  [work, 'abort', 'any', 'run fails (ABORTED)', () => route(work, 'abort')],
  [
    check,
    'next',
    'condition matches',
    'go to closure.done',
    () => route(check, 'next', { handoff: { verdict: 'ok' } }),
  ],
  [
    check,
    'next',
    'condition default',
    'go to continuation.work',
    () => route(check, 'next', { handoff: { verdict: 'no' } }),
  ],
  [check, 'escalate', '`{ target }`', 'go to continuation.work', () => route(check, 'escalate')],
  [check, 'handoff', 'no transition', 'run fails (FAILED_STEP_ROUTING)', () => route(check, 'handoff')],
  [closure, 'closing', '`{ target: null }`', 'Completion loop', () => route(closure, 'closing')],
  [closure, 'repeat', '`{ target }`', 'go to continuation.work', () => route(closure, 'repeat')],
  [bare, 'repeat', 'no transition', 'go to closure.bare', () => route(bare, 'repeat')],
  [
    work,
    'next',
    '`{ target: null }`',
    'run fails (FAILED_STEP_ROUTING)',
    () =>
      routeIntent({
        definition,
        step: makeStep('continuation.x', 'work', { next: { target: null } }),
        intent: 'next',
        handoff: {},
      }),
  ],
];

for (const [step, intent, when, expected, run] of TABLE) {
  test(`${step.stepKind} ${intent} (${when}) → ${expected}`, () => {
    assert.equal(show(run()), expected);
  });
}

test('an error names the step and the intent', () => {
  const r = route(check, 'handoff');
  assert.equal(r.kind, 'error');
  if (r.kind === 'error') assert.match(r.reason, /"verification\.check" has no transition for intent "handoff"/);
});

test("the docs' routing table (registry-reference §3.3) is this table", () => {
  const docs = readFileSync(new URL('../../../docs/registry-reference.md', import.meta.url), 'utf8');
  const start = docs.indexOf('<!-- routing-table: test/workflows/flow/intent-router.test.ts -->');
  assert.ok(start >= 0, 'the docs mark the routing table');
  const rows = docs
    .slice(start)
    .split('\n')
    .slice(1)
    .filter((l, i, all) => l.startsWith('|') && all.slice(0, i).every((p) => p.startsWith('|')))
    .slice(2)
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  const expected = TABLE.map(([step, intent, when, result]) => [step.stepKind, `\`${intent}\``, when, result]);
  assert.deepEqual(rows, expected);
});
