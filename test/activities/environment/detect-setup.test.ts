/**
 * Detection and failure reporting without the network: what each ecosystem's files
 * make the plan run and say (yarn classic/berry, bun, npm without a lockfile, Python
 * from setup.cfg and requirements files, cargo), `commands.setup` replacing detection,
 * and a fake runner at our own port for timeouts and optional steps.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { cacheLayout, worktreeLayout } from '../../../src/activities/environment/cache-layout.js';
import { planConfigured, planDetected } from '../../../src/activities/environment/detect-setup.js';
import { prepareEnvironment } from '../../../src/activities/environment/prepare-environment.js';
import type { CommandRequest, CommandRunner } from '../../../src/activities/process/command-runner.js';
import { exited, timedOut } from '../../helpers/command-outcome.js';
import { AgentError } from '../../../src/contracts/errors.js';
import { removeTempStateDir, useTempStateDir } from './environment-fixtures.js';

let root: string;
before(async () => {
  await useTempStateDir();
  root = await mkdtemp(path.join(os.tmpdir(), 'env-detect-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
  await removeTempStateDir();
});

let count = 0;
async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = path.join(root, `p${(count += 1)}`);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

async function plan(files: Record<string, string>): Promise<{ said: string; commands: string[]; tools: string[] }> {
  const dir = await dirWith(files);
  const p = await planDetected({
    dir,
    caches: cacheLayout(dir),
    worktree: worktreeLayout(dir),
    python: { python: 'python3', uv: false },
  });
  return { said: p.detected.join('\n'), commands: p.steps.map((s) => s.command), tools: p.tools.map((t) => t.spec) };
}

const pkg = (extra: Record<string, unknown> = {}): string => JSON.stringify({ name: 'x', ...extra });

test('node: the lockfile picks the manager, packageManager its version, each with its frozen install', async () => {
  const classic = await plan({ 'package.json': pkg(), 'yarn.lock': '# yarn lockfile v1\n' });
  assert.match(classic.commands[0] ?? '', /^yarn install --frozen-lockfile/);
  assert.deepEqual(classic.tools, ['yarn@1.22.22']);
  const berry = await plan({ 'package.json': pkg({ packageManager: 'yarn@4.5.3' }), 'yarn.lock': '__metadata:\n' });
  assert.equal(berry.commands[0], 'yarn install --immutable');
  assert.deepEqual(berry.tools, ['@yarnpkg/cli-dist@4.5.3']);
  const bun = await plan({ 'package.json': pkg(), 'bun.lock': '{}' });
  assert.equal(bun.commands[0], 'bun install --frozen-lockfile');
  const pnpm = await plan({ 'package.json': pkg({ packageManager: 'pnpm@9.15.0+sha512.abc' }), 'pnpm-lock.yaml': '' });
  assert.deepEqual(pnpm.tools, ['pnpm@9.15.0']);
  assert.match(
    pnpm.said,
    /pnpm 9\.15\.0 \(package\.json packageManager\): pnpm install --frozen-lockfile \(pnpm-lock\.yaml\)/,
  );
  const bare = await plan({ 'package.json': pkg({ dependencies: { 'is-number': '7.0.0' } }) });
  assert.match(bare.commands[0] ?? '', /^npm install .*--no-package-lock/);
  assert.match(bare.said, /package\.json, no lockfile/);
});

test('npm: nothing to install (no dependencies, workspaces or install scripts) runs no install, and says so', async () => {
  const empty = await plan({ 'package.json': pkg({ scripts: { test: 'node --test' }, devDependencies: {} }) });
  assert.deepEqual(empty.commands, []);
  assert.match(
    empty.said,
    /npm: nothing to install \(package\.json declares no dependencies, workspaces or install scripts; no lockfile\)/,
  );
  assert.doesNotMatch(empty.said, /no ecosystem detected/);
  // Any of these makes `npm install` do something for the root package.
  for (const extra of [
    { devDependencies: { tap: '1.0.0' } },
    { peerDependencies: { react: '*' } },
    { workspaces: ['packages/*'] },
    { scripts: { postinstall: 'node gen.js' } },
    { scripts: { prepare: 'tsc' } },
  ]) {
    const p = await plan({ 'package.json': pkg(extra) });
    assert.match(p.commands[0] ?? '', /^npm install /, JSON.stringify(extra));
  }
  // A package.json npm itself could not read is not judged here: the install says what is wrong.
  assert.match((await plan({ 'package.json': '{ not json' })).commands[0] ?? '', /^npm install /);
  // Other managers still install (their run commands need the tool and, for yarn berry, the install state).
  assert.match((await plan({ 'package.json': pkg(), 'yarn.lock': '' })).commands[0] ?? '', /^yarn install/);
});

test('python: setup.cfg extras and requirements files; a declared pytest is not added; cargo fetch', async () => {
  const py = await plan({
    'setup.cfg': '[metadata]\nname = x\n\n[options.extras_require]\ntesting =\n    pytest\n',
    'requirements-dev.txt': 'freezegun\n',
    'tests/test_x.py': '',
  });
  assert.match(py.said, /with extras testing/);
  assert.match(py.said, /requirements requirements-dev\.txt/);
  assert.doesNotMatch(py.said, /pytest added/);
  assert.match(py.commands[1] ?? '', /-m pip install -e '.*\[testing\]' -r .*requirements-dev\.txt$/);
  const reqOnly = await plan({ 'requirements.txt': 'six\n', 'test_x.py': '' });
  assert.match(reqOnly.said, /pytest added/);
  assert.doesNotMatch(reqOnly.commands[1] ?? '', / -e /);
  const rust = await plan({ 'Cargo.toml': '[package]\nname = "x"\n', 'Cargo.lock': '' });
  assert.deepEqual(rust.commands, ['cargo fetch --locked']);
  const none = await plan({ 'README.md': 'hi' });
  assert.match(none.said, /no ecosystem detected/);
});

test('commands.setup replaces detection and keys its stamps on the lockfiles', async () => {
  const dir = await dirWith({ 'package.json': pkg(), 'package-lock.json': '{}' });
  const p = await planConfigured(dir, ['make deps', 'make gen'], cacheLayout(dir));
  assert.deepEqual(
    p.steps.map((s) => [s.command, s.inputs]),
    [
      ['make deps', ['package.json', 'package-lock.json']],
      ['make gen', ['package.json', 'package-lock.json']],
    ],
  );
  assert.match(p.detected[0] ?? '', /2 command\(s\) from \.agent\/config\.json commands\.setup \(detection skipped\)/);
});

/** A runner at our own port: answers by command prefix, records what ran. */
function fakeRunner(
  answers: Array<[RegExp, { exitCode?: number; timedOut?: boolean; output: string }]>,
): CommandRunner & {
  ran: CommandRequest[];
} {
  const ran: CommandRequest[] = [];
  return {
    ran,
    run(request) {
      ran.push(request);
      const answer = answers.find(([re]) => re.test(request.command))?.[1] ?? { exitCode: 0, output: '' };
      return Promise.resolve(answer.timedOut ? timedOut(answer.output) : exited(answer.exitCode ?? 0, answer.output));
    },
  };
}

test('a timed-out step is ENVIRONMENT_FAILED; a failing warm-up build is reported, not fatal', async () => {
  const node = await dirWith({ 'package.json': pkg(), 'package-lock.json': '{}' });
  const slow = fakeRunner([[/^npm ci/, { timedOut: true, output: 'fetching…\n' }]]);
  await assert.rejects(
    prepareEnvironment({ runner: slow }, { worktreePath: node, repoPath: node, commandTimeoutMs: 5000 }),
    (error: unknown) => {
      assert.ok(AgentError.isInstance(error));
      assert.equal(error.code, 'ENVIRONMENT_FAILED');
      assert.match(error.message, /`npm ci [^`]*` timed out after 5 s and was killed/);
      assert.match(error.message, /last lines:\nfetching…/);
      return true;
    },
  );
  const go = await dirWith({ 'go.mod': 'module x\n' });
  const broken = fakeRunner([[/^go test/, { exitCode: 1, output: './x.go:3: undefined: Foo\nFAIL\n' }]]);
  const report = await prepareEnvironment({ runner: broken }, { worktreePath: go, repoPath: go });
  const warm = report.steps.find((s) => s.command.startsWith('go test'));
  assert.equal(warm?.status, 'failed-optional');
  assert.match(warm?.note ?? '', /undefined: Foo/);
  assert.ok(
    broken.ran.every((r) => r.env?.['HOME'] !== process.env['HOME']),
    'a private setup HOME',
  );
});
