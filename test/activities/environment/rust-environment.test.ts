/**
 * The environment phase on a real Rust crate (one dependency, itoa, Cargo.lock made
 * with cargo in the test): `cargo fetch --locked` into the shared CARGO_HOME, then
 * `cargo test` offline through the sandbox with that home read-only.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { execa } from 'execa';
import { createEnvironmentActivities } from '../../../src/activities/environment/create-environment-activities.js';
import {
  makeProject,
  removeTempStateDir,
  runInSandbox,
  useTempStateDir,
  type Project,
} from './environment-fixtures.js';

const FILES = {
  'Cargo.toml':
    '[package]\nname = "envdemo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nitoa = "=1.0.11"\n',
  '.gitignore': 'target/\n',
  'src/lib.rs':
    'pub fn show(n: u32) -> String {\n    itoa::Buffer::new().format(n).to_string()\n}\n\n' +
    '#[cfg(test)]\nmod tests {\n    #[test]\n    fn shows() {\n        assert_eq!(super::show(5), "5");\n    }\n}\n',
};

let project: Project;
const { prepareEnvironment } = createEnvironmentActivities();

before(async () => {
  await useTempStateDir();
  project = await makeProject(FILES, async (repo) => {
    await execa('cargo', ['generate-lockfile'], { cwd: repo.dir });
  });
});

after(async () => {
  await project.cleanup();
  await removeTempStateDir();
});

test('cargo fetch into the shared CARGO_HOME; cargo test offline in the sandbox; the second fetch is cached', async () => {
  const wt = await project.worktree();
  const cold = await prepareEnvironment({ worktreePath: wt, repoPath: project.repo.dir });
  assert.deepEqual(cold.detected, ['rust: cargo fetch (Cargo.toml, Cargo.lock)']);
  assert.equal(cold.sandbox.env['CARGO_NET_OFFLINE'], 'true');
  const run = await runInSandbox(wt, 'cargo test 2>&1');
  assert.equal(run.exitCode, 0, run.output);
  assert.match(run.output, /test result: ok\. 1 passed/);
  const poison = await runInSandbox(wt, `touch "${cold.sandbox.env['CARGO_HOME']}/poison" 2>&1; echo rc=$?`);
  assert.match(poison.output, /rc=1/);
  const warm = await prepareEnvironment({ worktreePath: await project.worktree(), repoPath: project.repo.dir });
  assert.equal(warm.cached, true, JSON.stringify(warm.steps));
  console.log(`cargo setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms`);
});
