/**
 * What the agent's commands write outside git's view must not decide a validator's
 * verdict: user config in HOME (`~/.npmrc`'s script-shell made `npm test` a fake), forged
 * bytecode Python loads instead of the source, compiled classes a build reuses, caches
 * under node_modules. Each scenario plants the forgery from the agent's sandbox, shows it
 * works there, and shows the validator's command does not see it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildOutputPaths } from '../../../src/activities/tools/validator-view.js';
import { validatorStateDir } from '../../../src/activities/workspace/sandbox-state.js';
import { withSandboxedRepo } from '../../helpers/sandboxed-repo.js';
import { runInSandbox } from '../../helpers/run-in-sandbox.js';
import { writeInstalledReport } from '../../helpers/installed-report.js';

const agent = (dir: string, command: string) => runInSandbox(dir, command);
const validator = (dir: string, command: string) => runInSandbox(dir, command, { validator: true });

test("a validator's HOME is the agent's as setup left it: what a step wrote there later is not read", async () => {
  await withSandboxedRepo({ 'README.md': 'x\n' }, async (repo) => {
    // An agent-written setup caches what the offline tests need in HOME (agent-setup.md).
    assert.equal((await agent(repo.dir, 'mkdir -p "$HOME/.m2" && echo cached > "$HOME/.m2/dep"')).exitCode, 0);
    // The preflight: the worktree's first configured command, before any step.
    const preflight = await validator(repo.dir, 'cat "$HOME/.m2/dep"; echo "home=$HOME"');
    assert.match(preflight.stdout, /^cached$/m, preflight.all);
    const home = /home=(.*)/.exec(preflight.stdout)?.[1] ?? '';
    assert.ok(home.startsWith(validatorStateDir(repo.dir)), home);
    // A step plants user config a test tool reads: npm's script-shell.
    const planted = await agent(repo.dir, `printf 'script-shell=/bin/true\\n' > "$HOME/.npmrc" && cat "$HOME/.npmrc"`);
    assert.equal(planted.stdout, 'script-shell=/bin/true', planted.all);
    const closing = await validator(repo.dir, 'ls -A "$HOME"');
    assert.equal(closing.exitCode, 0, closing.all);
    assert.doesNotMatch(closing.stdout, /\.npmrc/);
    assert.match(closing.stdout, /\.m2/);
    const reach = await agent(repo.dir, `ls ${JSON.stringify(home)} || echo unreachable`);
    assert.match(reach.all, /unreachable/);
  });
});

test("an agent-written setup's HOME cache reaches the validators, though a detected command's preflight came first", async () => {
  await withSandboxedRepo({ 'README.md': 'x\n' }, async (repo) => {
    assert.equal((await validator(repo.dir, 'true')).exitCode, 0, "the detected command's preflight");
    const setup = await runInSandbox(repo.dir, 'mkdir -p "$HOME/.m2" && echo cached > "$HOME/.m2/dep"', {
      network: true,
    });
    assert.equal(setup.exitCode, 0, setup.all);
    assert.equal((await validator(repo.dir, 'cat "$HOME/.m2/dep"')).stdout, 'cached', "the setup's preflight");
    assert.equal((await agent(repo.dir, 'echo planted > "$HOME/.npmrc"')).exitCode, 0);
    assert.equal((await validator(repo.dir, 'ls -A "$HOME"')).stdout, '.m2', 'a step wrote there later');
  });
});

test("Python bytecode the agent forged is not loaded by a validator's Python", async () => {
  await withSandboxedRepo({ 'README.md': 'x\n' }, async (repo) => {
    // Same size and mtime as the real source: the pyc's header matches, so Python trusts it.
    const forge = [
      "printf 'X = 1\\n' > mod.py && mkdir -p fake && printf 'X = 2\\n' > fake/mod.py",
      "touch -d '2020-01-01 00:00:00' mod.py fake/mod.py",
      `python3 -c "import py_compile, importlib.util; py_compile.compile('fake/mod.py', cfile=importlib.util.cache_from_source('mod.py'), doraise=True)"`,
      'rm -rf fake',
      "python3 -c 'import mod; print(mod.X)'",
    ].join(' && ');
    const planted = await agent(repo.dir, forge);
    assert.equal(planted.stdout, '2', `the forgery works in the agent's own sandbox: ${planted.all}`);
    const judged = await validator(repo.dir, "python3 -c 'import mod; print(mod.X)'");
    assert.equal(judged.stdout, '1', judged.all);
  });
});

test("Maven's compiled classes and Gradle's build dirs are the validators' own", async () => {
  const files = { 'pom.xml': '<project/>\n', 'core/pom.xml': '<project/>\n', 'app/build.gradle': '\n' };
  await withSandboxedRepo(files, async (repo) => {
    assert.deepEqual(
      buildOutputPaths(repo.dir).filter((p) => !p.includes('generated')),
      ['target/classes', 'target/test-classes', 'app/build', 'core/target/classes', 'core/target/test-classes'],
    );
    const plant =
      'mkdir -p target/test-classes core/target/classes app/build && touch target/test-classes/FakeTest.class core/target/classes/Fake.class app/build/fake';
    assert.equal((await agent(repo.dir, plant)).exitCode, 0);
    const judged = await validator(
      repo.dir,
      'find target core/target app/build -type f; touch target/test-classes/RealTest.class',
    );
    assert.equal(judged.exitCode, 0, judged.all);
    assert.equal(judged.stdout, '', 'none of the planted classes is seen');
    const again = await validator(repo.dir, 'find target -type f');
    assert.equal(again.stdout, 'target/test-classes/RealTest.class', 'kept across validator runs');
    assert.deepEqual(readdirSync(join(repo.dir, 'target/test-classes')), ['FakeTest.class'], "the agent's are left");
    // A symlink where an output goes is removed, not followed: the sources stay as they are.
    await repo.write({ 'src/Keep.java': 'class Keep {}\n' });
    assert.equal((await agent(repo.dir, 'rm -rf target && ln -s src target')).exitCode, 0);
    const linked = await validator(repo.dir, 'touch target/classes/X.class && ls src');
    assert.equal(linked.stdout, 'Keep.java', linked.all);
    assert.equal(lstatSync(join(repo.dir, 'target')).isSymbolicLink(), false);
    // A file where an output goes is the repository's (a `build` script beside build.gradle): kept, and run.
    await repo.write({ 'tool/build.gradle': '\n', 'tool/build': 'echo built by the script\n' });
    const script = await validator(repo.dir, 'sh tool/build');
    assert.equal(script.stdout, 'built by the script', script.all);
  });
});

test("cargo's target dir, Python's bytecode and the node_modules caches are out of the agent's reach", async () => {
  await withSandboxedRepo({ '.gitignore': 'node_modules/\n', 'node_modules/.cache/keep': '' }, async (repo) => {
    const installed = { readOnly: [join(repo.dir, 'node_modules')], writable: [join(repo.dir, 'node_modules/.cache')] };
    await writeInstalledReport(repo.dir, installed);
    assert.equal((await agent(repo.dir, 'echo forged > node_modules/.cache/transform')).exitCode, 0);
    const judged = await validator(
      repo.dir,
      'echo "$(ls -A node_modules/.cache)"; echo "$CARGO_TARGET_DIR"; echo "$PYTHONPYCACHEPREFIX"; touch "$CARGO_TARGET_DIR/built"',
    );
    assert.equal(judged.exitCode, 0, judged.all);
    const [cache, cargoTarget, pycache] = judged.stdout.split('\n');
    assert.equal(cache, '', judged.all);
    for (const dir of [cargoTarget, pycache]) assert.ok(dir?.startsWith(validatorStateDir(repo.dir)), dir);
    const reach = await agent(
      repo.dir,
      `ls ${JSON.stringify(cargoTarget)} || echo unreachable; touch ${JSON.stringify(`${cargoTarget}/x`)}`,
    );
    assert.match(reach.all, /unreachable/);
    assert.notEqual(reach.exitCode, 0, 'the agent cannot write the validators’ target dir');
  });
});
