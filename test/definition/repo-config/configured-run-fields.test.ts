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
  notes: [],
});

test('the configured budget, answer timeout, setup and iterations, as start-run passes them', () => {
  assert.deepEqual(
    configuredRunFields(settings({ budget: { maxUsd: 2 }, answerTimeoutHours: 48, maxIterations: 7 }, ['make deps'])),
    { budget: { maxUsd: 2 }, answerTimeoutMs: 48 * 3_600_000, setup: ['make deps'], maxIterations: 7 },
  );
  assert.deepEqual(configuredRunFields(settings({})), {}, 'nothing configured: nothing set');
});
