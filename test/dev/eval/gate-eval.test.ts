/**
 * `eval --mine` on a history built here, then the gate measured on the mined task with
 * real runs of the default agent against the real Temporal dev server (one server for
 * the file): the oracle (the gold commit applied with the agent's own tools) is
 * delivered and passes the hidden checks; a model that changes nothing and one that
 * skips the failing test are refused.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { mineHistory } from '../../../src/dev/eval/mine/mine-history.js';
import { sweLine, type SweTask } from '../../../src/dev/eval/swe-jsonl.js';
import { loadTaskFile } from '../../../src/dev/eval/task-file.js';
import { runEval } from '../../../src/dev/eval/run-eval.js';
import { evalTotals } from '../../../src/dev/eval/eval-table.js';
import { GateMode } from '../../../src/dev/eval/gate/gate-sessions.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import type { TempGitRepo } from '../../helpers/temp-git-repo.js';
import { teardownEnv, testEnv, workflowBundle } from '../../helpers/temporal-env.js';
import { minedHistory } from './mined-history.js';

let repo: TempGitRepo;
let scratch: string;
let tasks: SweTask[];
const log: string[] = [];

before(async () => {
  repo = await minedHistory();
  scratch = await mkdtemp(join(tmpdir(), 'gate-eval-'));
  tasks = await mineHistory({ repo: repo.dir, limit: 5, log: (l) => log.push(l) });
});

after(async () => {
  await teardownEnv();
  await repo.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

test('mining keeps the fix commit and says why the others are not tasks', async () => {
  assert.equal(tasks.length, 1, log.join('\n'));
  const [task] = tasks;
  const fix = await repo.git('rev-parse', 'HEAD~2');
  assert.equal(task?.commit, fix);
  assert.equal(task?.baseCommit, await repo.git('rev-parse', 'HEAD~3'));
  assert.equal(
    task?.problemStatement,
    'clamp() ignores the upper bound\n\nclamp(15, 0, 10) returns 15; it should return 10.',
  );
  assert.deepEqual(task?.failToPass, ['clamp lowers values above the range']);
  assert.deepEqual(task?.passToPass, ['clamp raises values below the range']);
  assert.equal(task?.testCommand, 'npm test');
  assert.match(task?.testPatch ?? '', /^diff --git a\/test\/clamp\.test\.js/);
  assert.match(task?.patch ?? '', /^diff --git a\/src\/clamp\.js/);
  assert.match(
    log.join('\n'),
    /Document clamp\(\) and test a plain value: skipped, the changed tests pass without the code change/,
  );
  assert.doesNotMatch(log.join('\n'), /README/, 'a commit without tests is not a candidate');
});

test('oracle delivered, no-op and sabotage refused, through real runs', { timeout: 600_000 }, async () => {
  const file = join(scratch, 'tasks.jsonl');
  await writeFile(file, tasks.map((t) => `${sweLine(t)}\n`).join(''));
  const loaded = loadTaskFile(file);
  assert.equal(loaded.tasks[0]?.swe?.instanceId, tasks[0]?.instanceId);
  const env = await testEnv();
  const rows = await runEval(loaded, {
    client: env.client,
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    agentDir: PROJECT_ROOT,
    artifactsDir: join(scratch, 'artifacts'),
    concurrency: 3,
    offline: true,
    modes: [GateMode.Oracle, GateMode.NoOp, GateMode.Sabotage],
    env: process.env,
    workflowBundle: await workflowBundle(),
  });
  const byMode = Object.fromEntries(rows.map((r) => [r.mode, r]));
  const oracle = byMode['oracle']!;
  assert.equal(oracle.invalid, false, oracle.invalidReason);
  assert.equal(oracle.delivered, true, oracle.reason);
  assert.equal(oracle.solved, true, oracle.reason);
  const noOp = byMode['no-op']!;
  assert.equal(noOp.delivered, false);
  assert.match(noOp.reason, /branch-changed: nothing changed/);
  const sabotage = byMode['sabotage']!;
  assert.equal(sabotage.delivered, false, sabotage.reason);
  assert.match(sabotage.sabotage ?? '', /skips 1 and deletes 0 of 1 failing test/);
  assert.match(sabotage.reason, /test-integrity/);
  const totals = evalTotals(rows, 0);
  assert.deepEqual(
    [totals.oracleAccepted, totals.noOpRefused, totals.sabotageRefused, totals.invalid],
    [{ valid: 1, count: 1 }, { valid: 1, count: 1 }, { valid: 1, count: 1 }, 0],
  );
});
