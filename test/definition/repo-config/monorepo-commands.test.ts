/**
 * The test command of a monorepo covers every member and runs to the end: npm and yarn
 * classic workspaces (`npm test --workspaces --if-present`, npm going on past a failing
 * workspace where `yarn workspaces run test` stops), a pnpm workspace without a root test
 * script (`pnpm -r --no-bail test`), a Cargo workspace (`--workspace`: a root that is also
 * a package otherwise tests itself alone), Go repositories of several modules (each
 * module's `go test ./...`, since the root's `./...` stops at a nested go.mod). The Go loop
 * is also run here on a generated two-module repository, so it is known to work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { goModules, useDirectives } from '../../../src/definition/repo-config/go-modules.js';
import { parseTestFailures } from '../../../src/activities/conditions/test-reports/parse-test-failures.js';

async function withFiles<T>(files: Record<string, string>, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'mono-detect-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const detected = (files: Record<string, string>): Promise<string | undefined> =>
  withFiles(files, async (dir) => (await detectCommands(dir)).commands.test);

const pkg = (fields: Record<string, unknown>): string => JSON.stringify({ name: 'root', private: true, ...fields });
const member = (name: string): string => JSON.stringify({ name, scripts: { test: 'node --test' } });
const PLACEHOLDER = 'echo "Error: no test specified" && exit 1';

test('npm, yarn classic and pnpm workspaces: every workspace with a test script, to the end', async () => {
  const members = { 'packages/a/package.json': member('a'), 'packages/b/package.json': member('b') };
  const cases: Array<[Record<string, string>, string | undefined]> = [
    // npm: no root test script (or npm init's placeholder) → every workspace's.
    [
      { 'package.json': pkg({ workspaces: ['packages/*'] }), 'package-lock.json': '{}', ...members },
      'npm test --workspaces --if-present',
    ],
    [
      { 'package.json': pkg({ workspaces: ['packages/*'], scripts: { test: PLACEHOLDER } }), ...members },
      'npm test --workspaces --if-present',
    ],
    // A root test script of its own is the project's choice.
    [{ 'package.json': pkg({ workspaces: ['packages/*'], scripts: { test: 'jest' } }), ...members }, 'npm test'],
    // yarn classic: its workspaces run stops at the first failure; so does nothing at the root.
    [
      {
        'package.json': pkg({ workspaces: ['packages/*'], scripts: { test: 'yarn workspaces run test' } }),
        'yarn.lock': '# yarn lockfile v1\n',
        ...members,
      },
      'npm test --workspaces --if-present',
    ],
    [
      {
        'package.json': pkg({ workspaces: { packages: ['packages/*'], nohoist: [] } }),
        'yarn.lock': '# yarn lockfile v1\n',
        ...members,
      },
      'npm test --workspaces --if-present',
    ],
    [
      { 'package.json': pkg({ workspaces: ['packages/*'], scripts: { test: 'jest' } }), 'yarn.lock': '', ...members },
      'yarn test',
    ],
    // yarn berry is not handled (its workspaces foreach was not measured).
    [
      { 'package.json': pkg({ workspaces: ['packages/*'] }), 'yarn.lock': '__metadata:\n  version: 8\n', ...members },
      undefined,
    ],
    // pnpm: a workspace without a root test script.
    [
      { 'package.json': pkg({}), 'pnpm-lock.yaml': '', 'pnpm-workspace.yaml': 'packages: [packages/*]\n', ...members },
      'pnpm -r --no-bail test',
    ],
    [
      { 'package.json': pkg({ scripts: { test: 'pnpm -r test' } }), 'pnpm-lock.yaml': '', 'pnpm-workspace.yaml': '' },
      'pnpm --no-bail -r test',
    ],
    // Not a workspace: unchanged.
    [{ 'package.json': pkg({ workspaces: [] }), ...members }, undefined],
    [{ 'package.json': pkg({ scripts: { test: 'mocha' } }), 'package-lock.json': '{}' }, 'npm test'],
  ];
  for (const [files, expected] of cases) assert.equal(await detected(files), expected, JSON.stringify(files));
});

test("npm init's placeholder test script in a workspace: the others are named, so the placeholder cannot fail a fixed branch", async () => {
  const gamma = JSON.stringify({ name: 'gamma', scripts: { test: PLACEHOLDER } });
  const files = {
    'package.json': pkg({ workspaces: ['packages/*', 'tools/cli'] }),
    'packages/a/package.json': member('a'),
    'packages/b c/package.json': member('b c'),
    'packages/gamma/package.json': gamma,
    'packages/no-scripts/package.json': JSON.stringify({ name: 'd' }),
    'tools/cli/package.json': member('cli'),
  };
  assert.equal(await detected(files), "npm test -w packages/a -w 'packages/b c' -w tools/cli");
  // Only placeholders: nothing to run.
  assert.equal(
    await detected({ 'package.json': pkg({ workspaces: ['packages/*'] }), 'packages/gamma/package.json': gamma }),
    undefined,
  );
  // A `**` pattern is not expanded here: every workspace, as before.
  assert.equal(
    await detected({ 'package.json': pkg({ workspaces: ['packages/**'] }), 'packages/gamma/package.json': gamma }),
    'npm test --workspaces --if-present',
  );
});

test('the named workspaces run on a real npm workspace, both failures named, the placeholder left out', async () => {
  const failing = (title: string) =>
    `require('node:test')(${JSON.stringify(title)}, () => require('node:assert').equal(1, 2));\n`;
  await withFiles(
    {
      'package.json': pkg({ workspaces: ['packages/*'] }),
      'packages/alpha/package.json': member('@m/alpha'),
      'packages/alpha/test/a.test.js': failing('alpha fails'),
      'packages/beta/package.json': member('@m/beta'),
      'packages/beta/test/b.test.js': failing('beta fails'),
      'packages/gamma/package.json': JSON.stringify({ name: '@m/gamma', scripts: { test: PLACEHOLDER } }),
    },
    async (dir) => {
      const command = (await detectCommands(dir)).commands.test ?? '';
      assert.equal(command, 'npm test -w packages/alpha -w packages/beta');
      // Outside this test runner's context: a nested `node --test` would skip its files.
      const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
      const run = await execa('bash', ['-c', command], { cwd: dir, reject: false, all: true, env, extendEnv: false });
      assert.equal(run.exitCode, 1, run.all);
      assert.deepEqual(
        parseTestFailures(run.all ?? '').map((f) => f.name),
        ['alpha fails', 'beta fails'],
      );
      assert.doesNotMatch(run.all ?? '', /no test specified/);
    },
  );
});

test('a Cargo workspace tests every member crate; a single crate is tested as before', async () => {
  const crate = '[package]\nname = "x"\nversion = "0.1.0"\n';
  assert.equal(await detected({ 'Cargo.toml': crate }), 'cargo test --no-fail-fast');
  for (const root of [
    `${crate}\n[workspace]\nmembers = ["crates/a"]\n`,
    '[workspace]\nresolver = "2"\nmembers = ["crates/*"]\n',
    `${crate}\n[workspace.dependencies]\nserde = "1"\n`,
  ])
    assert.equal(await detected({ 'Cargo.toml': root }), 'cargo test --workspace --no-fail-fast', root);
  // A member crate's `x.workspace = true` keys are not a workspace table.
  assert.equal(await detected({ 'Cargo.toml': `${crate}edition.workspace = true\n` }), 'cargo test --no-fail-fast');
});

test('Go: one module as before; nested modules or a go.work run every module to the end', async () => {
  const mod = (path: string): string => `module example.com/${path}\n\ngo 1.21\n`;
  assert.equal(await detected({ 'go.mod': mod('x') }), 'go test ./...');
  const loop = (dirs: string) => `rc=0; for m in ${dirs}; do (cd "$m" && go test ./...) || rc=1; done; exit $rc`;
  assert.equal(await detected({ 'go.mod': mod('x'), 'lib/go.mod': mod('x/lib') }), loop(`'.' 'lib'`));
  // No module at the root; the go command's ignored directories are left out.
  assert.equal(
    await detected({
      'svc/api/go.mod': mod('api'),
      'tools/go.mod': mod('tools'),
      'vendor/v/go.mod': mod('v'),
      'svc/testdata/go.mod': mod('t'),
      '_old/go.mod': mod('o'),
    }),
    loop(`'svc/api' 'tools'`),
  );
  // go.work: its use directives, not every go.mod.
  assert.equal(
    await detected({
      'go.work': 'go 1.22\n\nuse (\n\t.\n\t./lib // the library\n)\n',
      'go.mod': mod('x'),
      'lib/go.mod': mod('l'),
      'old/go.mod': mod('o'),
    }),
    loop(`'.' 'lib'`),
  );
  assert.deepEqual(useDirectives('go 1.22\nuse ./a\nuse "./b c"\n'), ['a', 'b c']);
  assert.equal(
    await withFiles({ 'go.work': 'go 1.22\nuse .\n', 'go.mod': mod('x') }, goModules).then((m) => m?.dirs.join()),
    '.',
  );
});

test('the Go loop runs on a real two-module repository: both modules tested, both failures named, exit 1', async () => {
  const failing = (pkg: string, name: string) =>
    `package ${pkg}\n\nimport "testing"\n\nfunc ${name}(t *testing.T) { t.Errorf("want 1, got 2") }\n`;
  await withFiles(
    {
      'go.mod': 'module example.com/root\n\ngo 1.21\n',
      'root_test.go': failing('root', 'TestRoot'),
      'lib/go.mod': 'module example.com/root/lib\n\ngo 1.21\n',
      'lib/lib_test.go': failing('lib', 'TestLib'),
    },
    async (dir) => {
      const command = (await detectCommands(dir)).commands.test ?? '';
      const run = await execa('bash', ['-c', command], {
        cwd: dir,
        reject: false,
        all: true,
        env: { GOTOOLCHAIN: 'local', GOFLAGS: '' },
      });
      assert.equal(run.exitCode, 1, run.all);
      assert.deepEqual(
        parseTestFailures(run.all ?? '').map((f) => [f.name, f.file]),
        [
          ['TestRoot', 'root_test.go'],
          ['TestLib', 'lib_test.go'],
        ],
      );
    },
  );
});
