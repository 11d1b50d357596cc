/**
 * The real CLI: `sync-labels` over local issues writes the pipeline's labels (prefixed)
 * to .agent/issues/labels.json, `--dry-run` writes nothing, an invalid workflow exits 2.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DEAD_ADDRESS, assertNoStack, describeResult, runCli } from './cli-process.js';
import { writePipelineRepo } from '../definition/pipeline/pipeline-fixture.js';

const env = { TEMPORAL_ADDRESS: DEAD_ADDRESS };

test('sync-labels --dry-run computes only; then the labels are created with the prefix; again: unchanged', async () => {
  const repo = writePipelineRepo();
  const labelsFile = path.join(repo.agentDir, 'issues', 'labels.json');
  const dry = await runCli(['sync-labels', '--repo', repo.root, '--dry-run', '--json'], { env });
  assert.equal(dry.code, 0, describeResult(dry));
  const planned = JSON.parse(dry.stdout) as { dryRun: boolean; results: { name: string; outcome: string }[] };
  assert.equal(planned.dryRun, true);
  assert.equal(planned.results.length, 7);
  assert.ok(planned.results.every((r) => r.outcome === 'created' && r.name.startsWith('docs:')));
  assert.equal(existsSync(labelsFile), false, 'a dry run writes nothing');

  const real = await runCli(['sync-labels', '--repo', repo.root], { env });
  assert.equal(real.code, 0, describeResult(real));
  assert.match(real.stdout, /^ {2}created {3}docs:kind:impl \(a2eeef, "Implementation work"\)$/m);
  assert.match(real.stdout, /labels: 7 total \(created=7, updated=0, unchanged=0, failed=0\)/);
  const file = JSON.parse(readFileSync(labelsFile, 'utf8')) as Record<string, unknown>;
  assert.deepEqual(file['docs:need clearance'], { color: 'd93f0b', description: 'Blocked: needs a human' });

  const again = await runCli(['sync-labels', '--repo', repo.root], { env });
  assert.match(again.stdout, /created=0, updated=0, unchanged=7, failed=0/, describeResult(again));
});

test('sync-labels with an invalid workflow exits 2 naming the problem', async () => {
  const repo = writePipelineRepo((w) => {
    w.labels.done.color = 'green';
  });
  const result = await runCli(['sync-labels', '--workflow', repo.workflowPath], { env });
  assert.equal(result.code, 2, describeResult(result));
  assertNoStack(result);
  assert.match(result.stderr, /WF-LABEL-005/);
  assert.equal(result.stdout.trim(), '');
});
