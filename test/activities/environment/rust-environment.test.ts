/**
 * The environment phase on a real Rust crate (one dependency, itoa, Cargo.lock made
 * with cargo in the test): `cargo fetch --locked` into the shared CARGO_HOME, then
 * `cargo test` offline through the sandbox with that home read-only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execa } from 'execa';
import { assertPassesInSandbox, assertReadOnlyInSandbox, useEnvironmentProject } from './environment-fixtures.js';

const env = useEnvironmentProject(
  {
    'Cargo.toml':
      '[package]\nname = "envdemo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nitoa = "=1.0.11"\n',
    '.gitignore': 'target/\n',
    'src/lib.rs':
      'pub fn show(n: u32) -> String {\n    itoa::Buffer::new().format(n).to_string()\n}\n\n' +
      '#[cfg(test)]\nmod tests {\n    #[test]\n    fn shows() {\n        assert_eq!(super::show(5), "5");\n    }\n}\n',
  },
  {
    lock: async (repo) => {
      await execa('cargo', ['generate-lockfile'], { cwd: repo.dir });
    },
  },
);

test('cargo fetch into the shared CARGO_HOME; cargo test offline in the sandbox; the second fetch is cached', async () => {
  const wt = await env.project.worktree();
  const cold = await env.prepare(wt);
  assert.deepEqual(cold.detected, ['rust: cargo fetch (Cargo.toml, Cargo.lock)']);
  assert.equal(cold.sandbox.env['CARGO_NET_OFFLINE'], 'true');
  await assertPassesInSandbox(wt, 'cargo test 2>&1', /test result: ok\. 1 passed/);
  await assertReadOnlyInSandbox(wt, cold.sandbox.env['CARGO_HOME']);
  const warm = await env.prepareWarm();
  console.log(`cargo setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms`);
});
