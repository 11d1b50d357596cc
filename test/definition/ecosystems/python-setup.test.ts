/**
 * Python detection of the ways real projects declare test dependencies, without the
 * network: PEP 735 `[dependency-groups]` (includes, markers, `dev` only as a fallback,
 * uv's `--group` vs requirement strings for pip), requirements files in `requirements/`
 * and `test-requirements.txt`, and `[project.optional-dependencies]` as an inline table.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { detectPython } from '../../../src/definition/ecosystems/python-setup.js';
import { optionalDependencies } from '../../../src/definition/ecosystems/pyproject-tables.js';

let root: string;
before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'env-detect-py-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

let count = 0;
async function plan(files: Record<string, string>, uv = false): Promise<{ said: string; install: string }> {
  const dir = path.join(root, `p${(count += 1)}`);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  const p = await detectPython({ dir, venv: '/v', caches: cacheLayout(dir), tools: { python: 'python3', uv } });
  assert.ok(p);
  return { said: p.detected.join('\n'), install: p.steps[1]?.command ?? '' };
}

const PROJECT = '[project]\nname = "x"\nversion = "1"\n\n';
const GROUPS = [
  '[dependency-groups]',
  'dev = ["ruff", "tox"]',
  'base = [',
  '    "freezegun",  # time travel',
  '    "gha-update ; python_full_version >= \'3.12\'",',
  ']',
  'Tests = [{include-group = "base"}, "pytest"]',
  'typing = ["mypy"]',
  '',
].join('\n');

test('dependency groups: the test group with includes and markers; dev only when no test group', async () => {
  const pip = await plan({ 'pyproject.toml': PROJECT + GROUPS, 'tests/test_x.py': '' });
  assert.match(pip.install, / -e \/\S+ freezegun 'gha-update ; python_full_version >= '\\''3\.12'\\''' pytest$/);
  assert.match(
    pip.said,
    /\[dependency-groups\] Tests installed \(as requirements: freezegun, gha-update ; .*, pytest\); not dev, base, typing/,
  );
  assert.doesNotMatch(pip.said, /pytest added/, 'the group declares pytest');
  assert.doesNotMatch(pip.install, /ruff|mypy/);

  const uv = await plan({ 'pyproject.toml': PROJECT + GROUPS }, true);
  assert.match(uv.install, /^uv pip install .* -e \S+ --group Tests$/);
  assert.match(uv.said, /Tests installed \(uv --group\)/);

  const devOnly = await plan({
    'pyproject.toml': PROJECT + '[dependency-groups]\ndev = ["pytest", "six"]\ndocs = ["sphinx"]\n',
  });
  assert.match(devOnly.install, / pytest six$/);
  assert.match(devOnly.said, /dev installed .*; not docs/);

  const none = await plan({ 'pyproject.toml': PROJECT + '[dependency-groups]\ndocs = ["sphinx"]\n', 'test_x.py': '' });
  assert.match(none.said, /docs: none named test\/tests\/testing\/dev, none installed/);
  assert.match(none.install, / pytest$/);
});

test('requirements files in requirements/ and test-requirements.txt; docs ones are left out', async () => {
  const p = await plan({
    'setup.py': 'from setuptools import setup\nsetup()\n',
    'requirements/tests.txt': 'pytest\n',
    'requirements/dev.txt': '-r tests.txt\n',
    'requirements/docs.txt': 'sphinx\n',
    'test-requirements.txt': 'freezegun\n',
  });
  assert.match(p.said, /requirements test-requirements\.txt, requirements\/dev\.txt, requirements\/tests\.txt$/m);
  assert.match(p.install, /-r \S+\/requirements\/dev\.txt -r \S+\/requirements\/tests\.txt$/);
  assert.doesNotMatch(p.install, /docs\.txt/);
  assert.doesNotMatch(p.said, /pytest added/);
});

test('optional dependencies as an inline table, dotted keys or a table', async () => {
  const inline = await plan({
    'pyproject.toml': '[project]\nname = "x"\noptional-dependencies = { docs = ["a"], test = [\n  "pytest", # c\n] }\n',
  });
  assert.match(inline.said, /with extras test$/m);
  assert.match(inline.install, /'\/\S+\[test\]'$/);
  assert.doesNotMatch(inline.said, /pytest added/);
  assert.deepEqual(
    [
      ...optionalDependencies(
        '[project]\noptional-dependencies.dev = ["b]"] # c\noptional-dependencies.test = [\'c\']\n',
      ),
    ],
    [
      ['dev', ['b]']],
      ['test', ['c']],
    ],
  );
  assert.deepEqual(
    [...optionalDependencies('[project.optional-dependencies]\ntest = ["""\n[b]""", 1.5]\n[b]\nw = "no"\n')],
    [['test', ['[b]']]],
    'a multi-line string holding a header is one requirement; numbers are dropped',
  );
  assert.deepEqual(
    [...optionalDependencies('[project.optional-dependencies]\ntest = ["c"\n')],
    [],
    'not TOML: nothing',
  );
});

test('a Hatch test env: its dependencies and the declared features it names join the install', async () => {
  const p = await plan({
    'pyproject.toml': [
      '[project]',
      'name = "x"',
      'version = "1"',
      'optional-dependencies = { async = ["anyio"] }',
      '[tool.hatch.envs.test]',
      'dependencies = ["pytest>=8", "freezegun ; python_version >= \'3.9\'"]',
      'features = ["async", "undeclared"]',
    ].join('\n'),
  });
  assert.match(
    p.said,
    /\[tool\.hatch\.envs\.test\] dependencies installed without Hatch: pytest>=8, freezegun .* \(features async, undeclared\)$/m,
  );
  assert.match(p.install, /-e '\/\S+\[async\]' 'pytest>=8' 'freezegun ; python_version >= '\\''3\.9'\\'''$/);
  assert.doesNotMatch(p.said, /pytest added/);
});
