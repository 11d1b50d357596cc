/**
 * The environment phase on a real npm project (is-number + mocha, lockfile made with
 * npm in the test): `npm ci` into the worktree, the project's tests through the agent's
 * sandbox, the second worktree's setup served from the warm npm cache, a retried
 * prepare skipping what is done, no secret in the setup env, and a failing
 * `commands.setup` reported as ENVIRONMENT_FAILED with the command and exit code.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { AgentError } from '../../../src/contracts/errors.js';
import { readEnvironmentReport } from '../../../src/activities/environment/environment-file.js';
import { assertPassesInSandbox, useEnvironmentProject } from './environment-fixtures.js';

const FILES = {
  'package.json': JSON.stringify(
    {
      name: 'env-npm',
      version: '1.0.0',
      private: true,
      scripts: { test: 'mocha' },
      dependencies: { 'is-number': '7.0.0' },
      devDependencies: { mocha: '10.8.2' },
    },
    null,
    2,
  ),
  '.gitignore': 'node_modules/\n',
  'test/is-number.test.js':
    "const assert = require('assert');\nconst isNumber = require('is-number');\n" +
    "describe('is-number', () => { it('knows 5', () => assert.ok(isNumber(5))); });\n",
};

const env = useEnvironmentProject(FILES, {
  lock: async (repo) => {
    await execa('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], { cwd: repo.dir });
  },
});

test('npm ci into the worktree; the tests pass through the sandbox; a second worktree hits the cache', async () => {
  const first = await env.project.worktree();
  const cold = await env.prepare(first);
  assert.match(cold.detected.join('\n'), /npm: npm ci .*\(package-lock\.json\)/);
  const step = cold.steps.find((s) => s.ecosystem === 'npm');
  assert.equal(step?.status, 'ran');
  assert.equal(step?.cacheHit, false);
  assert.equal(cold.cached, false);
  assert.ok(existsSync(path.join(first, 'node_modules', 'is-number')), 'node_modules in the worktree');
  await assertPassesInSandbox(first, 'npm test', /1 passing/);
  assert.deepEqual(readEnvironmentReport(first)?.steps, cold.steps);
  assert.deepEqual(cold.warnings, [], 'npm ci leaves nothing git shows');

  const second = await env.project.worktree();
  const warm = await env.prepareWarm(second);
  // Issue 29: the second setup of the same lockfile is a copy of the first's node_modules.
  assert.equal(warm.steps[0]?.status, 'restored', JSON.stringify(warm.steps));
  assert.match(warm.steps[0]?.reused.join('\n') ?? '', /node_modules snapshot/);
  assert.ok(existsSync(path.join(second, 'node_modules', 'is-number')), 'node_modules copied into the worktree');
  await assertPassesInSandbox(second, 'npm test', /1 passing/);
  console.log(`npm setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms`);

  const retried = await env.prepare(second);
  assert.equal(retried.steps[0]?.status, 'skipped');
});

test('setup sees no secret and no worker HOME; a failing commands.setup is ENVIRONMENT_FAILED', async () => {
  const saved = { ...process.env };
  // Canaries shaped like real credentials, assembled here so no token-shaped literal is committed.
  process.env['ANTHROPIC_API_KEY'] = ['sk', 'ant', 'planted-secret-0123456789'].join('-');
  process.env['GITHUB_TOKEN'] = ['gh', 'p_plantedtoken0123456789abcdefghij'].join('');
  process.env['TEMPORAL_ADDRESS'] = '127.0.0.1:7233';
  try {
    const wt = await env.project.worktree();
    const probe = 'env > "$PWD/.setup-env.txt"';
    const report = await env.prepare(wt, { setup: [probe] });
    assert.equal(report.steps[0]?.ecosystem, 'configured');
    const { readFile } = await import('node:fs/promises');
    const seen = await readFile(path.join(wt, '.setup-env.txt'), 'utf8');
    assert.doesNotMatch(seen, /planted|ANTHROPIC_|GITHUB_TOKEN|TEMPORAL_/);
    assert.doesNotMatch(seen, new RegExp(`^HOME=${process.env['HOME']}$`, 'm'));
    assert.match(report.warnings.join('\n'), /setup left 1 change\(s\) git shows in the worktree \(\.setup-env\.txt\)/);

    const bad = await env.project.worktree();
    await assert.rejects(
      env.prepare(bad, {
        setup: [
          'echo preparing',
          'echo "no such thing: $ANTHROPIC_API_KEY" >&2; printf "sk-%s-%s\\n" ant printedkey0123456789; exit 7',
        ],
      }),
      (error: unknown) => {
        assert.ok(AgentError.isInstance(error));
        assert.equal(error.code, 'ENVIRONMENT_FAILED');
        assert.match(error.message, /exit 7` exited with code 7/);
        assert.match(error.message, /no such thing: $/m);
        assert.doesNotMatch(String(error.details?.['lastLines']), /printedkey/, 'key-shaped output is redacted');
        assert.equal(error.where, '.agent/config.json#/commands/setup/1');
        assert.equal(error.details?.['exitCode'], 7);
        return true;
      },
    );
  } finally {
    for (const name of ['ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'TEMPORAL_ADDRESS']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
});

test('with the base commit named, a worktree the agent has changed is refused before any setup runs', async () => {
  const base = await env.project.repo.git('rev-parse', 'HEAD');
  const wt = await env.project.worktree();
  await writeFile(path.join(wt, 'package.json'), '{"scripts":{"preinstall":"touch pwned"}}\n');
  await assert.rejects(env.prepare(wt, { baseCommit: base, setup: ['touch ran'] }), (error: unknown) => {
    assert.ok(AgentError.isInstance(error));
    assert.equal(error.code, 'ENVIRONMENT_FAILED');
    assert.match(error.message, /tracked files changed: M package\.json/);
    return true;
  });
  assert.equal(existsSync(path.join(wt, 'ran')), false);
  await execa('git', ['checkout', '--', 'package.json'], { cwd: wt });
  const ok = await env.prepare(wt, { baseCommit: base, setup: ['touch ran'] });
  assert.equal(ok.steps[0]?.status, 'ran');
});

test('with the base commit named, a worktree whose HEAD moved (the agent committed) is refused; an unknown base too', async () => {
  const base = await env.project.repo.git('rev-parse', 'HEAD');
  const wt = await env.project.worktree();
  await writeFile(path.join(wt, 'added.txt'), 'agent work\n');
  await execa('git', ['add', 'added.txt'], { cwd: wt });
  await execa('git', ['-c', 'user.name=A', '-c', 'user.email=a@e.x', 'commit', '-q', '-m', 'agent work'], { cwd: wt });
  await assert.rejects(env.prepare(wt, { baseCommit: base, setup: ['touch ran'] }), (error: unknown) => {
    assert.ok(AgentError.isInstance(error));
    assert.equal(error.code, 'ENVIRONMENT_FAILED');
    assert.match(error.message, new RegExp(`HEAD [0-9a-f]{12} is not the base commit ${base.slice(0, 12)}`));
    return true;
  });
  await assert.rejects(env.prepare(wt, { baseCommit: 'f'.repeat(40), setup: ['touch ran'] }), /is not the base commit/);
  assert.equal(existsSync(path.join(wt, 'ran')), false);
});
