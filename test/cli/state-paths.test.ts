import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifactsDirOf, devServerStateDir, runsFromClone, toolsDir, xdgStateDir } from '../../src/host/state-paths.js';
import { uiUrlFor } from '../../src/host/temporal/ensure-temporal.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

test('artifacts live under the repository git dir', () => {
  assert.equal(artifactsDirOf('/r/.git'), join('/r/.git', 'agent', 'artifacts'));
});

test('a clone keeps .temporal and .tools in the clone; an installed copy uses the XDG state dir', async () => {
  const installed = await mkdtemp(join(tmpdir(), 'installed-'));
  const clone = await mkdtemp(join(tmpdir(), 'clone-'));
  try {
    await mkdir(join(clone, '.git'));
    const env = { XDG_STATE_HOME: '/xdg/state' };
    assert.equal(runsFromClone(clone), true);
    assert.equal(runsFromClone(installed), false);
    assert.equal(devServerStateDir(env, clone), join(clone, '.temporal'));
    assert.equal(toolsDir(env, clone), join(clone, '.tools'));
    assert.equal(devServerStateDir(env, installed), join('/xdg/state', 'issue-agent', 'temporal'));
    assert.equal(toolsDir(env, installed), join('/xdg/state', 'issue-agent', 'tools'));
    assert.equal(xdgStateDir({}), join(homedir(), '.local', 'state', 'issue-agent'));
    assert.equal(xdgStateDir({ XDG_STATE_HOME: '' }), join(homedir(), '.local', 'state', 'issue-agent'));
  } finally {
    await rm(installed, { recursive: true, force: true });
    await rm(clone, { recursive: true, force: true });
  }
});

test('this checkout is a clone (tests and CI keep .tools in it)', () => {
  assert.equal(runsFromClone(PROJECT_ROOT), true);
});

test('Web UI address: TEMPORAL_UI_URL, else the frontend port + 1000 on its host', () => {
  assert.equal(uiUrlFor('127.0.0.1:7233', {}), 'http://127.0.0.1:8233');
  assert.equal(uiUrlFor('127.0.0.1:7300', {}), 'http://127.0.0.1:8300');
  assert.equal(uiUrlFor('temporal.internal:7233', {}), 'http://temporal.internal:8233');
  assert.equal(uiUrlFor('127.0.0.1:7300', { TEMPORAL_UI_URL: 'https://ui.example/' }), 'https://ui.example');
  assert.equal(uiUrlFor('localhost', {}), 'http://localhost:8233');
});
