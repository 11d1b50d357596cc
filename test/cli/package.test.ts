/**
 * The installable package: not private, a `bin` compiled to dist/, every runtime import
 * a production dependency, `engines` true for every locked package, and the compiled
 * command answering --help / --version / validate with no tsx in the process (built
 * into a temp copy of the package layout, so the real dist/ is not touched).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { builtinModules } from 'node:module';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  private?: boolean;
  version: string;
  bin: Record<string, string>;
  files: string[];
  engines: { node: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

test('package.json: installable, one bin in dist/, test-only packages in devDependencies', () => {
  assert.notEqual(pkg.private, true, 'a private package cannot be published or packed for install');
  assert.deepEqual(pkg.bin, { 'issue-agent': 'dist/client.js' });
  for (const entry of ['dist/', 'registry/', 'prompts/', 'scripts/setup-temporal.mjs'])
    assert.ok(pkg.files.includes(entry), `files ships ${entry}`);
  for (const devOnly of ['tsx', '@temporalio/testing', 'typescript'])
    assert.ok(!(devOnly in pkg.dependencies) && devOnly in pkg.devDependencies, `${devOnly} is dev-only`);
  // prepack, not prepare: an install of the tarball runs no script of ours (npm lists prepare as one).
  assert.match(pkg.scripts['prepack'] ?? '', /npm run build/);
  assert.equal(pkg.scripts['prepare'], undefined);
  assert.ok(pkg.files.includes('docs/'), 'the pages error messages point to ship');
  assert.match(pkg.scripts['build'] ?? '', /tsc -p tsconfig\.build\.json/);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

test('every package src/ imports at run time is a production dependency', () => {
  const builtins = new Set(builtinModules);
  for (const file of sourceFiles(join(PROJECT_ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^import (?!type )[^;]*? from '([^'.][^']*)'/gms)) {
      const spec = m[1]!;
      if (spec.startsWith('node:') || builtins.has(spec)) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      assert.ok(name in pkg.dependencies, `${relative(PROJECT_ROOT, file)} imports ${name}, not a dependency`);
    }
  }
});

test('engines is true: no locked package needs a newer Node major than engines allows', () => {
  const floor = Number(/^>=\s*(\d+)/.exec(pkg.engines.node)?.[1]);
  assert.ok(floor >= 20, `engines.node is ">=N": ${pkg.engines.node}`);
  const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
  };
  const tooNew: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (!range) continue;
    // Every alternative (a || b) of the range must exclude our floor for it to be a conflict.
    const allows = range.split('||').some((alt) => {
      const min = /(?:>=|\^|~)?\s*v?(\d+)/.exec(alt.trim());
      return min === null || Number(min[1]) <= floor || /^\s*[<*]/.test(alt);
    });
    if (!allows) tooNew.push(`${path} (node ${range})`);
  }
  assert.deepEqual(tooNew, [], 'pin these with overrides or move them');
});

test('the lockfile lists every platform of the native optional packages (npm ci anywhere)', () => {
  const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { optionalDependencies?: Record<string, string> }>;
  };
  const names = new Set(Object.keys(lock.packages).map((k) => k.split('node_modules/').pop()));
  const missing = Object.entries(lock.packages).flatMap(([path, entry]) =>
    Object.keys(entry.optionalDependencies ?? {})
      .filter((dep) => !names.has(dep))
      .map((dep) => `${path} -> ${dep}`),
  );
  assert.deepEqual(missing, [], 'npm ci rejects a lockfile missing these');
});

describe_compiled();

function describe_compiled(): void {
  let root: string;
  const bin = () => join(root, 'dist', 'client.js');
  const node = (...args: string[]) =>
    run(process.execPath, [bin(), ...args], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } });

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'issue-agent-package-'));
    for (const entry of ['package.json', 'registry', 'prompts', 'scripts', 'node_modules', 'tsconfig.json'])
      await symlink(join(PROJECT_ROOT, entry), join(root, entry));
    await run(
      process.execPath,
      [
        join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        join(PROJECT_ROOT, 'tsconfig.build.json'),
        '--outDir',
        join(root, 'dist'),
      ],
      { cwd: PROJECT_ROOT },
    );
    // As `npm run build` does: the bin and the worker become bundles (scripts/bundle-cli.mjs).
    await run(process.execPath, [join(PROJECT_ROOT, 'scripts', 'bundle-cli.mjs'), join(root, 'dist')], {
      cwd: PROJECT_ROOT,
    });
  });

  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  test('compiled: bundling refuses a dist/ without tsc output, and one already bundled, naming npm run build', async () => {
    const bundle = (dir: string) =>
      run(process.execPath, [join(PROJECT_ROOT, 'scripts', 'bundle-cli.mjs'), dir], { cwd: PROJECT_ROOT }).then(
        () => assert.fail(`bundle-cli accepted ${dir}`),
        (err: { code?: number; stderr?: string }) => err,
      );
    const empty = await mkdtemp(join(tmpdir(), 'issue-agent-empty-dist-'));
    try {
      const missing = await bundle(empty);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr ?? '', /bundle-cli: .*client\.js not found; run `npm run build`/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    const again = await bundle(join(root, 'dist'));
    assert.equal(again.code, 1);
    assert.match(again.stderr ?? '', /client\.js is already a bundle; run `npm run build`/);
  });

  test('compiled: --help lists the commands, --version prints the package version', async () => {
    assert.ok(existsSync(bin()));
    assert.match(readFileSync(bin(), 'utf8'), /^#!\/usr\/bin\/env node\n/, 'the bin has a shebang');
    assert.match(readFileSync(bin(), 'utf8'), /from "\.\/chunks\//, 'the bin is the bundle, split into chunks');
    const help = await node('--help');
    assert.match(help.stdout, /^Usage: issue-agent <command> \[flags\]/m);
    for (const command of [
      'start-run',
      'status',
      'retry',
      'cancel',
      'reset',
      'validate',
      'worker',
      'dev-server',
      'model-server',
    ])
      assert.match(help.stdout, new RegExp(`^  ${command}\\s+\\S`, 'm'), `--help lists ${command}`);
    assert.equal((await node('--version')).stdout.trim(), pkg.version);
    const runHelp = await node('start-run', '--help');
    assert.match(runHelp.stdout, /^Usage: issue-agent start-run \[flags\]/m);
    assert.match(runHelp.stdout, /--issue N/);
  });

  test('compiled: model-server serves a session and prints its URL (no clone, no tsx)', async () => {
    const child = spawn(
      process.execPath,
      [bin(), 'model-server', '--session', join(PROJECT_ROOT, 'demo', 'session.json')],
      {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
        child.once('exit', (code) => reject(new Error(`model-server exited ${code}`)));
      });
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(((await (await fetch(`${url}/_stats`)).json()) as { requests: number }).requests, 0);
    } finally {
      child.kill('SIGTERM');
    }
    const usage = await node('model-server', '--record').then(
      () => assert.fail('--record alone is a usage error'),
      (e: { code?: number; stderr?: string }) => e,
    );
    assert.equal(usage.code, 2);
    assert.match(usage.stderr ?? '', /--upstream/);
  });

  test('compiled: validate finds the default agent shipped next to dist/', async () => {
    const result = await node('validate');
    assert.match(result.stdout, /\S/);
  });

  test('compiled: the worker bundles the JavaScript workflows from dist/', async () => {
    const source = join(root, 'dist', 'worker', 'workflow-source.js');
    const { stdout } = await run(process.execPath, [
      '--input-type=module',
      '-e',
      `import { WORKFLOWS_PATH, COMPILED } from ${JSON.stringify(source)}; console.log(JSON.stringify({ WORKFLOWS_PATH, COMPILED }))`,
    ]);
    const found = JSON.parse(stdout) as { WORKFLOWS_PATH: string; COMPILED: boolean };
    assert.equal(found.COMPILED, true);
    assert.equal(found.WORKFLOWS_PATH, join(root, 'dist', 'workflows', 'index.js'));
    assert.ok(existsSync(found.WORKFLOWS_PATH));
  });
}
