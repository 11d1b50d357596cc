/**
 * The nox module: which sessions a noxfile defines, which one tests, and that only a
 * nox-only project is nox's (a project with other Python files keeps the Python plan and
 * its pytest command); nox's own "no such session" and missing interpreter are
 * unrecoverable, a failing pytest under nox is not.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { unrecoverableReason } from '../../../src/activities/conditions/unrecoverable.js';
import { couldNotRun } from '../../../src/activities/preflight/could-not-run.js';
import { cacheLayout, worktreeLayout } from '../../../src/activities/environment/cache-layout.js';
import { NOX_ECOSYSTEM, NOX_VERSION, noxSessions } from '../../../src/definition/ecosystems/nox-ecosystem.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';

const CACHES = cacheLayout('/repo', { ISSUE_AGENT_STATE_DIR: '/state' });
const WORKTREE = worktreeLayout('/worktree', { ISSUE_AGENT_STATE_DIR: '/state' });
const PYTHON = { python: 'python3', uv: false } as const;

const NOXFILE = [
  'import nox',
  'from nox import session',
  '',
  '@nox.session(python=["3.11", "3.12"])',
  'def lint(session):',
  '    session.run("ruff", "check")',
  '',
  '@session(name="tests", reuse_venv=True)',
  '@nox.parametrize("django", ["4", "5"])',
  'def run_the_tests(session, django):',
  '    session.run("pytest")',
  '',
  '@nox.session',
  'def docs(session):',
  '    pass',
].join('\n');

test('a noxfile names its sessions by function or by name=', () => {
  assert.deepEqual(noxSessions(NOXFILE), ['lint', 'tests', 'docs']);
  assert.deepEqual(noxSessions('import nox\n\n@nox.session()\ndef test(session):\n    pass\n'), ['test']);
});

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nox-ecosystem-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

test('a nox-only project tests with `nox -R -s <session>` after `nox --install-only`', async (t) => {
  const dir = await project({ 'noxfile.py': NOXFILE });
  t.after(() => rm(dir, { recursive: true, force: true }));
  const detected = await detectCommands(dir);
  assert.equal(detected.commands.test, 'nox -R -s tests');
  assert.match(detected.reasons[0] ?? '', /noxfile\.py session "tests"/);
  const setup = await NOX_ECOSYSTEM.setup?.(dir, CACHES, WORKTREE, PYTHON);
  assert.deepEqual(setup?.pythonApp, { name: 'nox', version: NOX_VERSION });
  assert.deepEqual(
    setup?.steps.map((s) => s.command),
    ['nox --install-only -s tests'],
  );
});

test('a noxfile beside other Python files, or without a test session, is not nox’s', async (t) => {
  const withPyproject = await project({ 'noxfile.py': NOXFILE, 'pyproject.toml': '[project]\nname = "x"\n' });
  const noTests = await project({ 'noxfile.py': 'import nox\n\n@nox.session\ndef lint(session):\n    pass\n' });
  t.after(() => Promise.all([withPyproject, noTests].map((d) => rm(d, { recursive: true, force: true }))));
  assert.equal((await detectCommands(withPyproject)).commands.test, 'pytest');
  assert.equal(await NOX_ECOSYSTEM.setup?.(withPyproject, CACHES, WORKTREE, PYTHON), undefined);
  assert.deepEqual((await detectCommands(noTests)).commands, {});
  assert.equal(await NOX_ECOSYSTEM.setup?.(noTests, CACHES, WORKTREE, PYTHON), undefined);
});

test('nox without the session or its Python is unrecoverable; a failing test under nox is not', () => {
  const exit1 = (stdout: string) => unrecoverableReason({ exitCode: 1, stdout, stderr: '' });
  assert.match(
    exit1('nox > Error while collecting sessions.\nnox > Sessions not found: tests\n') ?? '',
    /no such session/,
  );
  assert.match(
    exit1('nox > Running session tests-3.8\nnox > Session tests-3.8 failed: Python interpreter 3.8 not found.\n') ?? '',
    /not installed/,
  );
  const failing = [
    'nox > Running session tests',
    'FAILED tests/test_calc.py::test_subtracts - assert 3 == -1',
    '1 failed, 1 passed in 0.02s',
    'nox > Command python -m pytest -q tests failed with exit code 1',
    'nox > Session tests failed.',
  ].join('\n');
  assert.equal(exit1(failing), undefined);
});

test('on the base, nox without the session or its Python could not run (the preflight stops)', () => {
  const run = (stdout: string) => couldNotRun({ command: 'nox -R -s tests', exitCode: 1, stdout, stderr: '' });
  assert.equal(
    run('nox > Error while collecting sessions.\nnox > Sessions not found: tests\n')?.remedy,
    'other-command',
  );
  assert.equal(run('nox > Session tests-3.8 failed: Python interpreter 3.8 not found.\n')?.remedy, 'install');
  assert.equal(
    run('FAILED tests/test_calc.py::test_subtracts - assert 3 == -1\nnox > Session tests failed.\n'),
    undefined,
  );
});
