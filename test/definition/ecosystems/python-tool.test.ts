/**
 * A pinned Python tool is fetched by a command that runs in the worktree with the shared
 * tools dir writable (activities/environment/setup-scope.ts). `python -m pip` would put
 * the worktree first on sys.path, so a `pip.py` (or `venv/`) the repository holds would
 * run there and could replace the tool every later run of every repository uses. The
 * commands run real processes here against a registry that answers nothing, so the only
 * code that could run is the repository's.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { pythonToolStep } from '../../../src/definition/ecosystems/python-tool.js';
import { PythonManager } from '../../../src/definition/ecosystems/python-manager.js';
import { cachesUnder } from '../../../src/activities/environment/cache-layout.js';

const HOSTILE = 'open("SHADOWED", "w").write("the repository ran")\nraise SystemExit(0)\n';

for (const manager of [PythonManager.Uv, PythonManager.Poetry]) {
  test(`the ${manager} fetch runs pip and venv of the interpreter, never a pip.py or venv/ of the worktree`, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'python-tool-'));
    try {
      const worktree = path.join(dir, 'worktree');
      await mkdir(path.join(worktree, 'venv'), { recursive: true });
      await writeFile(path.join(worktree, 'pip.py'), HOSTILE);
      await writeFile(path.join(worktree, 'venv', '__main__.py'), HOSTILE);
      await writeFile(path.join(worktree, 'venv', '__init__.py'), '');
      const { step } = pythonToolStep(manager, 'python3', cachesUnder(path.join(dir, 'cache'), 'k'));
      assert.equal(step.installsTool, true);
      const result = await execa('bash', ['-c', step.command], {
        cwd: worktree,
        reject: false,
        all: true,
        timeout: 120_000,
        env: { PIP_INDEX_URL: 'http://127.0.0.1:9/simple', PIP_RETRIES: '0', PIP_TIMEOUT: '2' },
      });
      assert.notEqual(result.exitCode, 0, 'nothing to fetch from a registry that answers nothing');
      assert.equal(existsSync(path.join(worktree, 'SHADOWED')), false, `the worktree's module ran:\n${result.all}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
