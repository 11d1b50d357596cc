/**
 * The real CLI: `validate --workflow PATH` exits 2 listing several problems at once;
 * `validate --repo PATH` validates the agent and the repository's .agent/workflow.json;
 * `--json` prints one report.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEAD_ADDRESS, assertNoStack, describeResult, runCli } from './cli-process.js';
import { writePipelineRepo } from '../definition/pipeline/pipeline-fixture.js';

const env = { TEMPORAL_ADDRESS: DEAD_ADDRESS };

test('validate --workflow PATH: exit 2 naming each problem, nothing on stdout', async () => {
  const repo = writePipelineRepo((w) => {
    w.phases['impl-pending'].agent = 'iterator';
    w.labels['kind:impl'].color = 'blue';
    w.agents.detailer.directory = 'missing-agent';
  });
  const result = await runCli(['validate', '--workflow', repo.workflowPath], { env });
  assert.equal(result.code, 2, describeResult(result));
  assertNoStack(result);
  assert.equal(result.stdout.trim(), '');
  assert.match(result.stderr, /is invalid: 3 error\(s\)/, describeResult(result));
  assert.match(result.stderr, /^error {3}workflow\.json#\/phases\/impl-pending\/agent: WF-REF-001 /m);
  assert.match(result.stderr, /^error {3}workflow\.json#\/labels\/kind:impl\/color: WF-LABEL-005 /m);
  assert.match(result.stderr, /^error {3}workflow\.json#\/agents\/detailer\/directory: WF-AGENT-001 .*missing-agent/m);
});

test("validate --repo PATH --json: the agent and the repository's workflow.json, one JSON report", async () => {
  const repo = writePipelineRepo();
  const result = await runCli(['validate', '--repo', repo.root, '--json'], { env });
  assert.equal(result.code, 0, describeResult(result));
  const report = JSON.parse(result.stdout) as { valid: boolean; reports: { kind: string; valid: boolean }[] };
  assert.equal(report.valid, true);
  assert.deepEqual(
    report.reports.map((r) => [r.kind, r.valid]),
    [
      ['agent', true],
      ['workflow', true],
    ],
  );
});
