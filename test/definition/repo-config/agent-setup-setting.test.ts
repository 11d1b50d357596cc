/**
 * `environment.agentSetup` of `.agent/config.json` (docs/environments/agent-setup.md): the
 * agent-written setup is on by default (its commands run in the agent's sandbox), off when
 * the file says false, and never offered
 * over the user's own `commands.setup` or `commands.test`; a value that is not a boolean is
 * refused with its pointer, not taken as "on". Every starter passes it (configuredRunFields).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configuredRunFields, repoSettings } from '../../../src/definition/repo-config/repo-settings.js';

async function withConfig<T>(config: unknown, fn: (repo: string) => Promise<T>): Promise<T> {
  const repo = await mkdtemp(join(tmpdir(), 'agent-setup-setting-'));
  try {
    if (config !== undefined) {
      await mkdir(join(repo, '.agent'));
      await writeFile(join(repo, '.agent', 'config.json'), JSON.stringify(config));
    }
    return await fn(repo);
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
}

const allowed = (config: unknown): Promise<boolean> =>
  withConfig(config, async (repo) => (await repoSettings(repo)).agentSetup);

test('on by default, with or without a config file; off when the file says false', async () => {
  assert.equal(await allowed(undefined), true);
  assert.equal(await allowed({ environment: {} }), true);
  assert.equal(await allowed({ environment: { agentSetup: false } }), false);
  assert.equal(await allowed({ environment: { agentSetup: true } }), true);
});

test('never over the setup or the test command the user configured', async () => {
  const on = { agentSetup: true };
  assert.equal(await allowed({ environment: on, commands: { setup: 'make deps' } }), false);
  assert.equal(await allowed({ environment: on, commands: { test: 'make check' } }), false);
  assert.equal(
    await allowed({ environment: on, commands: { lint: 'make lint' } }),
    true,
    'another command leaves it on',
  );
});

test('every starter passes it: configuredRunFields says agentSetup only when on', async () => {
  await withConfig({ environment: { agentSetup: true } }, async (repo) => {
    assert.equal(configuredRunFields(await repoSettings(repo)).agentSetup, true);
  });
  await withConfig({ environment: { agentSetup: false } }, async (repo) => {
    assert.equal('agentSetup' in configuredRunFields(await repoSettings(repo)), false);
  });
});

test('a value that is not a boolean, or an unknown key, is refused with its pointer', async () => {
  for (const [environment, pointer, says] of [
    [{ agentSetup: 'no' }, /#\/environment\/agentSetup$/, /boolean/],
    [{ agentSetup: 0 }, /#\/environment\/agentSetup$/, /boolean/],
    [{ agentSetUp: false }, /#\/environment$/, /unknown key "agentSetUp"/],
    ['off', /#\/environment$/, /object/],
  ] as const) {
    await withConfig({ environment }, async (repo) => {
      await assert.rejects(repoSettings(repo), (err: Error & { where?: string; code?: string }) => {
        assert.equal(err.code, 'CONFIG_INVALID');
        assert.match(String(err.where), pointer, `${err.message} @ ${String(err.where)}`);
        assert.match(err.message, says);
        return true;
      });
    });
  }
});
