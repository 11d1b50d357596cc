/**
 * `npm run cluster` arguments: defaults, what a previous `up` saved, flags winning over
 * both, and usage errors that name the flag.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../src/contracts/errors.js';
import { parseClusterArgs } from '../../../src/dev/cluster/cluster-args.js';
import { serverEnvironment, settingsFile, uiEnvironment } from '../../../src/dev/cluster/cluster-settings.js';

function withStateDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-args-'));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('defaults: frontend 7233, the UI 1000 above it, PostgreSQL cluster issue-agent on 5433', () => {
  withStateDir((dir) => {
    const args = parseClusterArgs(['up', '--state-dir', dir]);
    assert.equal(args.action, 'up');
    assert.deepEqual(args.settings, {
      stateDir: dir,
      port: 7233,
      uiPort: 8233,
      pgPort: 5433,
      pgCluster: 'issue-agent',
      namespace: 'default',
    });
  });
});

test('status and down find the ports and the PostgreSQL cluster that up saved; flags win', () => {
  withStateDir((dir) => {
    const saved = { stateDir: dir, port: 17233, uiPort: 18233, pgPort: 15433, pgCluster: 'other', namespace: 'ns' };
    writeFileSync(settingsFile(dir), JSON.stringify(saved));
    assert.deepEqual(parseClusterArgs(['status', '--state-dir', dir]).settings, saved);
    const down = parseClusterArgs(['down', '--purge', '--state-dir', dir, '--pg-port', '25433']);
    assert.equal(down.purge, true);
    assert.equal(down.settings.pgPort, 25433);
    // A new --port moves the UI with it unless --ui-port says otherwise.
    assert.equal(parseClusterArgs(['up', '--state-dir', dir, '--port', '27233']).settings.uiPort, 28233);
  });
});

test('bad input is a usage error naming the flag', () => {
  withStateDir((dir) => {
    const cases: Array<[string[], RegExp]> = [
      [['--state-dir', dir], /expected up, down, status or provision, got nothing/],
      [['start', '--state-dir', dir], /expected up, down, status or provision, got start/],
      [['up', 'down', '--state-dir', dir], /one action expected/],
      [['up', '--port', '80', '--state-dir', dir], /--port must be a port 1024-65000, got 80/],
      [['up', '--purge', '--state-dir', dir], /--purge goes with down/],
      [['up', '--pg-cluster', 'Bad Name', '--state-dir', dir], /--pg-cluster must be a simple lowercase name/],
      [['up', '--bogus', '--state-dir', dir], /bogus/],
    ];
    for (const [argv, message] of cases) {
      assert.throws(
        () => parseClusterArgs(argv),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
        argv.join(' '),
      );
    }
  });
});

test('the server and UI environments: every port derived from the frontend port, the password only in env', () => {
  const s = { stateDir: '/x', port: 17233, uiPort: 18233, pgPort: 15433, pgCluster: 'c', namespace: 'default' };
  const env = serverEnvironment(s, 'abc123');
  const ports = Object.entries(env)
    .filter(([k]) => k.endsWith('_PORT') && k !== 'DB_PORT')
    .map(([, v]) => Number(v));
  assert.equal(new Set(ports).size, ports.length, 'no two services share a port');
  assert.ok(ports.every((p) => p >= 17233 - 300 && p <= 17233 + 10));
  assert.equal(env['FRONTEND_GRPC_PORT'], '17233');
  assert.equal(env['DB_PORT'], '15433');
  assert.equal(env['POSTGRES_PWD'], 'abc123');
  assert.equal(env['DB'], 'postgres12');
  assert.equal(uiEnvironment(s)['TEMPORAL_ADDRESS'], '127.0.0.1:17233');
  assert.equal(uiEnvironment(s)['TEMPORAL_UI_PORT'], '18233');
});
