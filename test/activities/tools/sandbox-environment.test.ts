/**
 * sandbox-launch honours a worktree's prepared environment (environment.json written
 * by the environment phase): its bins first on PATH, its variables (a command's own
 * extraEnv still wins), its read-only dirs visible but not writable, its writable dirs
 * writable, all inside the hidden harness state dir; without the file nothing changes.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { execa } from 'execa';
import { writeEnvironmentReport } from '../../../src/activities/environment/environment-file.js';
import { detectIsolation, enforcesFilesystem } from '../../../src/activities/tools/process-isolation.js';
import { sandboxCommand } from '../../../src/activities/tools/sandbox-launch.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

let state: string;
let repo: TempGitRepo;
const saved = process.env['ISSUE_AGENT_STATE_DIR'];

before(async () => {
  state = await realpath(await mkdtemp(path.join(os.tmpdir(), 'sandbox-env-state-')));
  process.env['ISSUE_AGENT_STATE_DIR'] = state;
  repo = await makeTempGitRepo();
});

after(async () => {
  if (saved === undefined) delete process.env['ISSUE_AGENT_STATE_DIR'];
  else process.env['ISSUE_AGENT_STATE_DIR'] = saved;
  await repo.cleanup();
  await rm(state, { recursive: true, force: true });
});

async function run(command: string, extraEnv?: Record<string, string>): Promise<string> {
  const sandbox = await sandboxCommand({ dir: repo.dir, command, readOnly: false, ...(extraEnv ? { extraEnv } : {}) });
  const result = await execa(sandbox.file, sandbox.args, {
    cwd: repo.dir,
    env: sandbox.env,
    extendEnv: false,
    reject: false,
    all: true,
  });
  return result.all ?? '';
}

test('PATH, variables and directories of environment.json apply to every command in the worktree', async () => {
  const tool = path.join(state, 'cache', 'tools', 'demo-1.0.0');
  const own = path.join(state, 'sandbox', 'own-cache');
  await mkdir(path.join(tool, 'bin'), { recursive: true });
  await mkdir(own, { recursive: true });
  await writeFile(path.join(tool, 'bin', 'demo-tool'), '#!/bin/sh\necho "demo tool ran"\n');
  await chmod(path.join(tool, 'bin', 'demo-tool'), 0o755);
  assert.doesNotMatch(await run('demo-tool 2>&1; echo "proxy=${GOPROXY:-unset}"'), /demo tool ran|proxy=off/);

  await writeEnvironmentReport({
    version: 1,
    worktreePath: repo.dir,
    detected: [],
    steps: [],
    cached: false,
    warnings: [],
    durationMs: 0,
    sandbox: {
      pathPrepend: [path.join(tool, 'bin')],
      env: { GOPROXY: 'off', VIRTUAL_ENV: tool },
      readOnlyDirs: [tool],
      writableDirs: [own],
    },
  });
  const out = await run(
    `demo-tool; echo "proxy=$GOPROXY venv=$VIRTUAL_ENV"; touch ${tool}/x 2>/dev/null && echo ro-written; touch ${own}/x && echo own-written`,
  );
  assert.match(out, /demo tool ran/);
  assert.match(out, new RegExp(`proxy=off venv=${tool}`));
  assert.match(out, /own-written/);
  if (enforcesFilesystem(await detectIsolation())) assert.doesNotMatch(out, /ro-written/);
  assert.match(await run('echo "proxy=$GOPROXY"', { GOPROXY: 'direct' }), /proxy=direct/);
});

test("the prepared bins are on the command's PATH only, never on the launcher's (the prelude runs as root before the drop)", async (t) => {
  if (!enforcesFilesystem(await detectIsolation(() => undefined))) return t.skip('no mount namespace here');
  const bin = path.join(state, 'cache', 'tools', 'demo-1.0.0', 'bin');
  const sandbox = await sandboxCommand({ dir: repo.dir, command: 'true', readOnly: false });
  assert.ok(!(sandbox.env['PATH'] ?? '').split(':').includes(bin), `launcher PATH: ${sandbox.env['PATH']}`);
  assert.ok(
    sandbox.args.some((a) => a.startsWith(`c:${bin}:`)),
    'the command gets the prepared bins first',
  );
});
