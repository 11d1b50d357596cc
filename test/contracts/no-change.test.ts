/**
 * The no-change declaration reader: what it accepts, that its reasons are the default
 * agent's closure schema enum; and the no-change outcome: its own exit code and end
 * phase, and a result carrying it is read back as a RunResult (a failed workflow's details).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_CHANGE_REASONS, noChangeDeclarationOf } from '../../src/contracts/no-change.js';
import type { JsonValue } from '../../src/contracts/json.js';
import { NO_CHANGE_EXIT_CODE, isRunResult, runExitCode } from '../../src/contracts/run-end.js';
import { RunOutcome } from '../../src/contracts/run.js';
import { endPhaseOf } from '../../src/workflows/run/state/run-end-result.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

test('a well-formed declaration is read; anything else is no declaration', () => {
  assert.deepEqual(noChangeDeclarationOf({ no_change: { reason: 'not-a-bug', evidence: 'works as documented' } }), {
    reason: 'not-a-bug',
    evidence: 'works as documented',
  });
  const malformed: JsonValue[] = [
    null,
    'already-fixed',
    { reason: 'fixed', evidence: 'x' },
    { reason: 'already-fixed' },
    { reason: 'already-fixed', evidence: '   ' },
    ['already-fixed'],
  ];
  assert.equal(noChangeDeclarationOf({}), undefined);
  for (const value of malformed)
    assert.equal(noChangeDeclarationOf({ no_change: value }), undefined, JSON.stringify(value));
});

test("the reasons are the default agent's closure schema enum", () => {
  const schema = JSON.parse(readFileSync(join(PROJECT_ROOT, 'registry', 'schemas', 'issue.schema.json'), 'utf8'));
  const field = schema['closure.issue'].properties.no_change;
  assert.deepEqual(field.properties.reason.enum, [...NO_CHANGE_REASONS]);
  assert.deepEqual(field.required, ['reason', 'evidence']);
});

test('no-change has its own exit code (3) and end phase, and reads back as a RunResult', () => {
  const table = Object.values(RunOutcome).map((o) => `${o}:${runExitCode(o)}:${endPhaseOf(o)}`);
  assert.deepEqual(table, ['success:0:completed', 'failed:1:failed', 'cancelled:1:cancelled', 'no-change:3:no-change']);
  assert.equal(NO_CHANGE_EXIT_CODE, 3);
  const result = { outcome: 'no-change', reason: 'no change', steps: [] };
  assert.equal(isRunResult(result), true);
  assert.equal(isRunResult({ ...result, outcome: 'maybe' }), false);
});
