/**
 * What `.agent/config.json` sets for every run reaches runs started by the watcher and by
 * start-batch too (they used to start them without the budget, so a watched run had no
 * limit at all): budget, answer timeout (hours → ms), setup, iterations; nothing invented.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configuredRunFields, type RepoSettings } from '../../../src/definition/repo-config/repo-settings.js';

const settings = (config: RepoSettings['config'], setup?: readonly string[]): RepoSettings => ({
  config,
  fromFile: true,
  overrides: {},
  instructions: '',
  ...(setup === undefined ? {} : { setup }),
  agentSetup: false,
  notes: [],
});

test('the configured budget, answer timeout, setup and iterations, as start-run passes them', () => {
  assert.deepEqual(
    configuredRunFields(settings({ budget: { maxUsd: 2 }, answerTimeoutHours: 48, maxIterations: 7 }, ['make deps'])),
    { budget: { maxUsd: 2 }, answerTimeoutMs: 48 * 3_600_000, setup: ['make deps'], maxIterations: 7 },
  );
  assert.deepEqual(configuredRunFields(settings({})), {}, 'nothing configured: nothing set');
});

test('a hard limit below the soft one is refused, naming the pointer', async () => {
  const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { readRepoConfig } = await import('../../../src/definition/repo-config/read-repo-config.js');
  const repo = await mkdtemp(join(tmpdir(), 'hard-limit-'));
  await mkdir(join(repo, '.agent'));
  await writeFile(join(repo, '.agent', 'config.json'), JSON.stringify({ budget: { maxUsd: 5, hardMaxUsd: 2 } }));
  await assert.rejects(readRepoConfig(repo), (err: Error & { where?: string }) => {
    assert.match(err.message, /budget\.hardMaxUsd \(\$2\) is below budget\.maxUsd \(\$5\)/);
    assert.match(String(err.where), /config\.json#\/budget\/hardMaxUsd$/);
    return true;
  });
  await writeFile(join(repo, '.agent', 'config.json'), JSON.stringify({ budget: { maxUsd: 5, hardMaxUsd: 20 } }));
  assert.deepEqual((await readRepoConfig(repo))?.budget, { maxUsd: 5, hardMaxUsd: 20 });
});
