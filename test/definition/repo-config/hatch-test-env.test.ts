/**
 * A Hatch project's test env read from pyproject.toml, without Hatch: which env (a test env
 * before `default`), what it inherits from `default` (not when detached or templated on
 * another env), its features, and its test script as one plain command (`{args:…}` and
 * script names expanded; a script with other context fields is not taken).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hatchTestEnv } from '../../../src/definition/repo-config/hatch-test-env.js';

const toml = (...lines: string[]): string => ['[project]', 'name = "x"', 'version = "1"', '', ...lines, ''].join('\n');

test('the test env inherits default: dependencies, extra-dependencies, features and scripts', () => {
  const env = hatchTestEnv(
    toml(
      '[tool.hatch.envs.default]',
      'dependencies = ["coverage[toml]>=6.5"]',
      'scripts.cov = "coverage run -m pytest {args}"',
      '',
      '[tool.hatch.envs.test]',
      'dependencies = ["pytest", "iniconfig==2.0.0"]',
      'extra-dependencies = ["pytest-mock"]',
      'features = ["async"]',
    ),
  );
  assert.deepEqual(env, {
    env: 'test',
    dependencies: ['coverage[toml]>=6.5', 'pytest', 'iniconfig==2.0.0', 'pytest-mock'],
    features: ['async'],
    script: { name: 'cov', command: 'coverage run -m pytest', written: 'coverage run -m pytest {args}' },
  });
});

test('default alone; scripts with {args:…} and other scripts named in a list', () => {
  const env = hatchTestEnv(
    toml(
      '[tool.hatch.envs.default]',
      'dependencies = ["pytest"]',
      '[tool.hatch.envs.default.scripts]',
      'unit = "pytest -q {args:tests}"',
      'test = ["unit", "python -m doctest README.md"]',
    ),
  );
  assert.equal(env?.env, 'default');
  assert.equal(env?.script?.command, 'pytest -q tests && python -m doctest README.md');
});

test('a detached test env or one templated on another env inherits nothing from default', () => {
  for (const option of ['detached = true', 'template = "lint"']) {
    const env = hatchTestEnv(
      toml(
        '[tool.hatch.envs.default]',
        'dependencies = ["ruff"]',
        '[tool.hatch.envs.tests]',
        option,
        'dependencies = ["pytest"]',
      ),
    );
    assert.deepEqual(env?.dependencies, ['pytest'], option);
  }
});

test('a script using other context fields, or calling itself, is not taken; no envs is undefined', () => {
  const env = hatchTestEnv(
    toml('[tool.hatch.envs.test.scripts]', 'test = "pytest --junitxml={env:OUT}"', 'cov = ["cov", "pytest"]'),
  );
  assert.equal(env?.env, 'test');
  assert.equal(env?.script, undefined);
  assert.equal(hatchTestEnv(toml('[tool.hatch.build]', 'packages = ["src/x"]')), undefined);
  assert.equal(hatchTestEnv('not = toml = at all'), undefined);
});
