/**
 * The harness git runner against a repository someone has armed: hooks that dump the
 * environment, `core.fsmonitor`, `core.hooksPath`, with canary secrets in the worker's
 * environment. Nothing planted may run, and nothing secret may reach git's env.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { git, harnessGitArgs, harnessGitEnv } from '../../../../src/activities/workspace/git/git.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';

const CANARIES = {
  ANTHROPIC_API_KEY: 'canary-model-key-RUNNER-01',
  GITHUB_TOKEN: 'canary-github-token-RUNNER-02',
  GH_TOKEN: 'canary-gh-token-RUNNER-03',
  TEMPORAL_ADDRESS: '127.0.0.1:7233',
  GIT_DIR: '/nonexistent/elsewhere',
  GIT_SSH_COMMAND: 'touch /tmp/pwned-by-ssh',
};
const saved: Record<string, string | undefined> = {};
let repo: TempGitRepo;

before(async () => {
  repo = await makeTempGitRepo();
});

/** The worker's environment holds the canaries from here on (the test helper's own git must not see GIT_DIR). */
function armWorkerEnv(): void {
  for (const [k, v] of Object.entries(CANARIES)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
}
after(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await repo.cleanup();
});

test('harnessGitEnv: a whitelist; no credential, no service address, no inherited GIT_*', () => {
  const env = harnessGitEnv(
    { PATH: '/bin', HOME: '/home/u', ...CANARIES, GIT_CONFIG_GLOBAL: '/evil', OTHER: 'x' },
    { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.x.extraheader', GIT_CONFIG_VALUE_0: 'v', GIT_EXEC_PATH: '/e' },
  );
  assert.equal(env['PATH'], '/bin');
  assert.equal(env['HOME'], '/home/u');
  assert.equal(env['GIT_CONFIG_KEY_0'], 'http.x.extraheader');
  for (const name of [...Object.keys(CANARIES), 'GIT_CONFIG_GLOBAL', 'OTHER', 'GIT_EXEC_PATH']) {
    assert.equal(env[name], undefined, name);
  }
  assert.equal(env['GIT_TERMINAL_PROMPT'], '0');
});

test('harnessGitArgs: hooks, fsmonitor and the ext transport are off before every subcommand', () => {
  const args = harnessGitArgs(['status']);
  assert.deepEqual(args.slice(-1), ['status']);
  for (const setting of ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'protocol.ext.allow=never']) {
    assert.ok(args.includes(setting), setting);
  }
});

test('planted hooks, core.hooksPath and core.fsmonitor do not run in harness git calls', async () => {
  const leak = path.join(repo.dir, '.git', 'leaks');
  mkdirSync(leak);
  const script = (name: string): string =>
    `#!/bin/sh\nenv > "${leak}/${name}.txt"\ncat /proc/$PPID/environ >> "${leak}/${name}.txt"\n`;
  const planted = path.join(repo.dir, '.git', 'planted-hooks');
  mkdirSync(planted);
  for (const dir of [path.join(repo.dir, '.git', 'hooks'), planted]) {
    mkdirSync(dir, { recursive: true });
    for (const hook of ['pre-commit', 'post-commit', 'reference-transaction', 'post-checkout', 'post-merge']) {
      writeFileSync(path.join(dir, hook), script(`${path.basename(dir)}-${hook}`));
      chmodSync(path.join(dir, hook), 0o755);
    }
  }
  const monitor = path.join(repo.dir, '.git', 'fsmonitor.sh');
  writeFileSync(monitor, script('fsmonitor'));
  chmodSync(monitor, 0o755);
  await repo.git('config', 'core.hooksPath', planted);
  await repo.git('config', 'core.fsmonitor', monitor);

  writeFileSync(path.join(repo.dir, 'new.txt'), 'x\n');
  armWorkerEnv();
  for (const args of [
    ['status', '--porcelain'],
    ['add', 'new.txt'],
    ['commit', '-q', '-m', 'harness commit'],
    ['branch', 'b1'],
    ['checkout', '-q', 'b1'],
    ['checkout', '-q', 'main'],
    ['merge', '-q', '--no-ff', '-m', 'merge', 'b1'],
  ]) {
    const r = await git(repo.dir, args);
    assert.equal(r.exitCode, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  assert.deepEqual(readdirSync(leak), [], 'no planted code ran');
  assert.equal(existsSync('/tmp/pwned-by-ssh'), false);
});
