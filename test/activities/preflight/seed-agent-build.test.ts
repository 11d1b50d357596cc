/**
 * After the preflight, the agent's cargo `target/` starts from the base's build the
 * validators made in their own dir, so its first `cargo test` does not compile everything
 * again; through the real sandbox, where only the validators' commands see their dir.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedAgentCargoTarget } from '../../../src/activities/preflight/seed-agent-build.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { withSandboxedRepo } from '../../helpers/sandboxed-repo.js';

const commands = createSpawnerCommandRunner();
const CRATE = { 'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n', '.gitignore': '/target/\n' };
/** What the preflight's `cargo test` leaves in the validators' target dir. */
const BUILD = 'mkdir -p "$CARGO_TARGET_DIR/debug/deps" && echo built > "$CARGO_TARGET_DIR/debug/deps/x-test"';

test("the agent's target/ is seeded from the preflight's build, and git still sees a clean tree", async () => {
  await withSandboxedRepo(CRATE, async (repo) => {
    assert.equal((await commands.run({ command: BUILD, cwd: repo.dir })).exitCode, 0);
    assert.equal(await seedAgentCargoTarget(commands, repo.dir), true);
    assert.equal(readFileSync(join(repo.dir, 'target/debug/deps/x-test'), 'utf8'), 'built\n');
    assert.equal(existsSync(join(repo.dir, 'target.seeding')), false);
    assert.equal(await repo.git('status', '--porcelain'), '');
    assert.equal(await seedAgentCargoTarget(commands, repo.dir), false, 'a target/ already there is kept');
  });
});

test('no seed where git would show target/, where nothing was built, or without a Cargo.toml', async () => {
  await withSandboxedRepo({ ...CRATE, '.gitignore': '' }, async (repo) => {
    assert.equal((await commands.run({ command: BUILD, cwd: repo.dir })).exitCode, 0);
    assert.equal(await seedAgentCargoTarget(commands, repo.dir), false);
    assert.equal(existsSync(join(repo.dir, 'target')), false);
  });
  await withSandboxedRepo(CRATE, async (repo) => {
    assert.equal(await seedAgentCargoTarget(commands, repo.dir), false);
    assert.equal(existsSync(join(repo.dir, 'target')), false);
  });
  await withSandboxedRepo({ '.gitignore': '/target/\n' }, async (repo) => {
    assert.equal((await commands.run({ command: BUILD, cwd: repo.dir })).exitCode, 0);
    assert.equal(await seedAgentCargoTarget(commands, repo.dir), false);
  });
});
