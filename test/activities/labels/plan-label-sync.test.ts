/** The pure label-sync plan and the declared labels of a pipeline (prefix applied). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declaredLabels, planLabelSync } from '../../../src/activities/labels/plan-label-sync.js';

const L = (name: string, color: string, description: string) => ({ name, color, description });

test('declared labels carry the labelPrefix (upstream synced bare names) and lower-case colours', () => {
  const labels = {
    ready: { color: 'A2EEEF', description: 'Ready' },
    'order:1': { color: 'c2e0c6', description: 'First' },
  };
  assert.deepEqual(declaredLabels({ labels, labelPrefix: 'docs' }), [
    L('docs:ready', 'a2eeef', 'Ready'),
    L('docs:order:1', 'c2e0c6', 'First'),
  ]);
  assert.deepEqual(
    declaredLabels({ labels }).map((l) => l.name),
    ['ready', 'order:1'],
  );
});

test('missing → create; drifted colour or description → update; same (colour case aside) → unchanged', () => {
  const desired = [L('a', 'aaaaaa', 'A'), L('b', 'bbbbbb', 'B'), L('c', 'cccccc', 'C'), L('d', 'dddddd', 'D')];
  const current = [L('b', 'BBBBBB', 'B'), L('c', 'cccccc', 'old C'), L('d', '000000', 'D'), L('other', '111111', 'x')];
  const plan = planLabelSync(desired, current);
  assert.deepEqual(
    plan.map((s) => [s.label.name, s.action]),
    [
      ['a', 'create'],
      ['b', 'unchanged'],
      ['c', 'update'],
      ['d', 'update'],
    ],
    'labels the pipeline does not declare (other) are never touched',
  );
  assert.deepEqual(plan[2]?.current, L('c', 'cccccc', 'old C'));
  assert.equal(plan[0]?.current, undefined);
});

test('an empty declaration plans nothing', () => {
  assert.deepEqual(planLabelSync([], [L('x', '000000', '')]), []);
});
