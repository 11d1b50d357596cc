/**
 * Replays recorded histories (test/fixtures/histories) against today's workflow code.
 * A nondeterministic change to workflow code (a reordered, added or removed command)
 * fails here before it can break runs in flight. Re-record only deliberately:
 * see test/record-histories.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../helpers/temporal-env.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'histories');

test('recorded histories replay without nondeterminism', { timeout: 120_000 }, async () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 2, 'at least two recorded histories');
  const histories = files.map((file) => ({
    workflowId: file.replace(/\.json$/, ''),
    history: historyFromJSON(JSON.parse(readFileSync(join(DIR, file), 'utf8'))),
  }));
  const results = Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories);
  const failures: string[] = [];
  let replayed = 0;
  for await (const result of results) {
    replayed += 1;
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  assert.equal(replayed, files.length);
  assert.deepEqual(failures, []);
});
