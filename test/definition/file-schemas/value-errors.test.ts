/**
 * A schema error about a value names that value, its pointer and what is allowed, so a
 * user sees the typo without opening the file: `stepKind: "working"` in a registry and
 * a phase `type: "final"` in workflow.json (issue 27, item 8).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAgentFile, describeValue } from '../../../src/definition/file-schemas/config-schema-check.js';
import { runValidateWorkflow } from '../../../src/definition/pipeline/validate-workflow.js';
import { runValidate } from '../../../src/definition/validate-command.js';
import { copyFixture, editJson } from '../temp-dirs.js';
import { writePipelineRepo } from '../pipeline/pipeline-fixture.js';

test('validate on a definition with stepKind "working" names working, the pointer and the allowed set', async () => {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    r.steps['initial.work'].stepKind = 'working';
  });
  const { exitCode, text } = await runValidate(dir);
  assert.equal(exitCode, 2, text);
  const line = text.split('\n').find((l) => l.includes('/steps/initial.work/stepKind'));
  assert.ok(line, text);
  assert.match(line, /value "working" is not allowed/);
  assert.match(line, /expected one of "work", "verification", "closure"/);
});

test('a workflow.json phase type "final" is named with its pointer and the allowed types', async () => {
  const repo = writePipelineRepo((w) => {
    w.phases.done.type = 'final';
  });
  const { exitCode, text } = await runValidateWorkflow(repo.workflowPath);
  assert.equal(exitCode, 2, text);
  const line = text.split('\n').find((l) => l.includes('/phases/done/type'));
  assert.ok(line, text);
  assert.match(line, /value "final" is not allowed/);
  assert.match(line, /expected one of "actionable"/);
});

test('type and pattern errors echo the value too; containers are named by kind', () => {
  const checked = checkAgentFile({ name: 'Hello', version: 3, runner: [] }, 'agent.json');
  assert.equal(checked.ok, false);
  if (checked.ok) return;
  const at = (pointer: string): string => checked.problems.find((p) => p.pointer === pointer)?.message ?? '';
  assert.match(at('/name'), /value "Hello" does not match the pattern/);
  assert.match(at('/version'), /wrong type: 3/);
  assert.match(at('/runner'), /wrong type: an array/);
});

test('describeValue quotes strings, cuts long ones, and says when nothing is there', () => {
  const doc = { a: { b: 'x'.repeat(100), c: null, d: [1] } };
  assert.equal(describeValue(doc, '/a/c'), 'null');
  assert.equal(describeValue(doc, '/a/d'), 'an array');
  assert.equal(describeValue(doc, '/a/zz'), 'nothing');
  const long = describeValue(doc, '/a/b');
  assert.ok(long.length <= 60 && long.startsWith('"xxx') && long.endsWith('…"'), long);
});
