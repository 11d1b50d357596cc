/**
 * tox.ini `[testenv]` read without tox: deps as requirement strings, `-r`/`-c` files
 * (`{toxinidir}` resolved), factor lines, other substitutions and pip options left out and
 * reported; the pytest line of `commands` as a plain command (`{posargs:…}` resolved).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toxTestEnv } from '../../../src/definition/repo-config/tox-test-env.js';

test('deps, files and the pytest line of [testenv]', () => {
  const env = toxTestEnv(
    [
      '[tox]',
      'envlist = py3, lint',
      '',
      '[testenv]',
      'deps =',
      '    pytest>=7  # the runner',
      '    -r{toxinidir}/ci/test-deps.txt',
      '    -c constraints.txt',
      '    py38: mock',
      '    -e .',
      '    {env:EXTRA_DEP}',
      'commands =',
      '    python -m pip list',
      '    coverage run -m pytest -q {posargs:tests}',
      '',
      '[testenv:lint]',
      'deps = ruff',
      'commands = pytest --lint',
    ].join('\n'),
  );
  assert.deepEqual(env, {
    requirements: ['pytest>=7'],
    requirementFiles: ['ci/test-deps.txt'],
    constraintFiles: ['constraints.txt'],
    skipped: ['py38: mock', '-e .', '{env:EXTRA_DEP}'],
    command: { command: 'coverage run -m pytest -q tests', written: 'coverage run -m pytest -q {posargs:tests}' },
  });
});

test('one-line deps and commands; no pytest line, no command; no [testenv], undefined', () => {
  const env = toxTestEnv('[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n');
  assert.deepEqual(env?.requirements, ['pytest']);
  assert.equal(env?.command?.command, 'pytest');
  assert.equal(toxTestEnv('[testenv]\ndeps = nose\ncommands = nosetests\n')?.command, undefined);
  assert.equal(toxTestEnv('[tox]\nenvlist = py3\n'), undefined);
});
