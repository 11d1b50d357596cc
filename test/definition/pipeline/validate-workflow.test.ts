/** runValidateWorkflow: the summary of a valid pipeline; every problem of an invalid one, one per line. */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runValidateWorkflow } from '../../../src/definition/pipeline/validate-workflow.js';
import { writePipelineRepo } from './pipeline-fixture.js';

test('a valid pipeline: exit 0 and a summary of phases, agents and labels', async () => {
  const repo = writePipelineRepo();
  const { exitCode, text, report } = await runValidateWorkflow(repo.workflowPath);
  assert.equal(exitCode, 0, text);
  assert.match(text, /^Pipeline 'docs' in .*workflow\.json is valid \(definition [0-9a-f]{12}\)\./);
  assert.match(text, /impl-pending \(actionable, priority 1, agent implementer\) ← 'docs:kind:impl'/);
  assert.match(
    text,
    /considerer \(validator, .*considerer\): done→done, handoff-detail→detail-pending, otherwise→blocked; closes the issue on done/,
  );
  assert.match(
    text,
    /implementer \(transformer, .*\): success→done, needs-detail→detail-pending, otherwise→blocked; closes the issue$/m,
  );
  assert.equal(report.valid, true);
  assert.equal(report.kind, 'workflow');
});

test('an invalid pipeline: exit 2, a header with the counts and every problem on its own line', async () => {
  const repo = writePipelineRepo((w) => {
    w.labelMapping['kind:detail'] = 'detailing';
    w.agents.considerer.closeOnComplete = false;
    w.rules = { maxCycles: 0 };
  });
  rmSync(path.join(repo.agentDir, 'implementer', 'prompts', 'system.md'));
  const { exitCode, text, report } = await runValidateWorkflow(repo.workflowPath);
  assert.equal(exitCode, 2);
  const lines = text.split('\n');
  assert.match(lines[0] ?? '', /^Workflow file .*workflow\.json is invalid: \d+ error\(s\), 0 warning\(s\)\.$/);
  for (const expected of [
    /^error {3}workflow\.json#\/labelMapping\/kind:detail: WF-LABEL-002 label 'kind:detail' maps to unknown phase 'detailing' \(expected one of the phases: /,
    /^error {3}workflow\.json#\/agents\/considerer\/closeCondition: WF-REF-005 /,
    /^error {3}workflow\.json#\/rules\/maxCycles: WF-RULE-001 /,
    /^error {3}implementer\/agent\.json#\/runner\/flow\/systemPromptPath: SYSTEM_PROMPT_MISSING agent 'implementer': /,
  ]) {
    assert.ok(
      lines.some((l) => expected.test(l)),
      `no line matches ${expected}:\n${text}`,
    );
  }
  assert.equal(report.valid, false);
  assert.ok(report.errors.length >= 4);
});
