/**
 * Label sync against the local issue store's labels file: creates, updates, leaves the
 * rest; a dry run writes nothing; a committed labels file is never edited (the copy
 * under the git dir takes the writes).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createLabelCatalogFactory } from '../../../src/activities/labels/label-catalog-factory.js';
import { LOCAL_LABELS_FILE } from '../../../src/activities/labels/local-label-catalog.js';
import { syncLabels } from '../../../src/activities/labels/apply-label-sync.js';
import { after } from 'node:test';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

const repos: TempGitRepo[] = [];
after(async () => {
  for (const r of repos) await r.cleanup();
});

async function tempRepo(): Promise<TempGitRepo> {
  const r = await makeTempGitRepo();
  repos.push(r);
  return r;
}

const desired = [
  { name: 'p:ready', color: 'a2eeef', description: 'Ready' },
  { name: 'p:done', color: '0e8a16', description: 'Done' },
  { name: 'p:blocked', color: 'd93f0b', description: 'Blocked' },
];

function writeLabels(repo: string, labels: unknown): void {
  mkdirSync(path.join(repo, '.agent', 'issues'), { recursive: true });
  writeFileSync(path.join(repo, LOCAL_LABELS_FILE), JSON.stringify(labels));
}

test('local catalog: create the missing, update the drifted, keep the rest; dry run writes nothing', async () => {
  const r = await tempRepo();
  const repo = r.dir;
  writeLabels(repo, {
    'p:done': { color: '0E8A16', description: 'Done' },
    'p:blocked': { color: 'd93f0b', description: 'old' },
    bug: { color: 'ff0000', description: 'A bug' },
  });
  const catalog = createLabelCatalogFactory({})('local', repo);
  const before = readFileSync(path.join(repo, LOCAL_LABELS_FILE), 'utf8');
  const dry = await syncLabels(catalog, desired, { dryRun: true });
  assert.deepEqual(
    dry.map((r) => [r.name, r.outcome]),
    [
      ['p:ready', 'created'],
      ['p:done', 'unchanged'],
      ['p:blocked', 'updated'],
    ],
  );
  assert.equal(readFileSync(path.join(repo, LOCAL_LABELS_FILE), 'utf8'), before, 'a dry run changes nothing');
  const real = await syncLabels(catalog, desired);
  assert.deepEqual(real, dry, 'the real run does what the dry run said');
  const file = JSON.parse(readFileSync(path.join(repo, LOCAL_LABELS_FILE), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(file['p:ready'], { color: 'a2eeef', description: 'Ready' });
  assert.deepEqual(file['p:blocked'], { color: 'd93f0b', description: 'Blocked' });
  assert.deepEqual(file['bug'], { color: 'ff0000', description: 'A bug' }, 'undeclared labels are kept');
  const again = await syncLabels(catalog, desired);
  assert.ok(
    again.every((r) => r.outcome === 'unchanged'),
    'idempotent',
  );
});

test('local catalog: no labels file yet → every label is created in a new file', async () => {
  const r = await tempRepo();
  const repo = r.dir;
  const results = await syncLabels(createLabelCatalogFactory({})('local', repo), desired);
  assert.ok(results.every((r) => r.outcome === 'created'));
  assert.ok(existsSync(path.join(repo, LOCAL_LABELS_FILE)));
});

test('local catalog: a committed labels file is not edited; the copy under the git dir is', async () => {
  const r = await tempRepo();
  const repo = r.dir;
  writeLabels(repo, { 'p:done': { color: '0e8a16', description: 'Done' } });
  await r.git('add', '-f', LOCAL_LABELS_FILE);
  await r.git('commit', '-qm', 'labels');
  const committed = readFileSync(path.join(repo, LOCAL_LABELS_FILE), 'utf8');
  const catalog = createLabelCatalogFactory({})('local', repo);
  const results = await syncLabels(catalog, desired);
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['created', 'unchanged', 'created'],
  );
  assert.equal(readFileSync(path.join(repo, LOCAL_LABELS_FILE), 'utf8'), committed, 'the checkout stays clean');
  assert.equal(await r.git('status', '--porcelain'), '');
  assert.deepEqual(
    (await catalog.list()).map((l) => l.name).sort(),
    ['p:blocked', 'p:done', 'p:ready'],
    'reads prefer the copy',
  );
});
