/**
 * The repository's commands reach the validators (run input overrides, as start-run
 * passes them from .agent/config.json or detection), and each validator command's full
 * output is saved as a run artifact under `<artifacts>/<workflow>/validators/<step>/`.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { safeSegment } from '../../src/activities/artifacts/artifact-store.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

test('a repository test command from the run input is what the validator runs, and its output is saved', async () => {
  const artifactsDir = await mkdtemp(join(tmpdir(), 'issue-agent-overrides-'));
  try {
    const { result, workflowId } = await runScenario({
      session: join(DEMO_DIR, 'session.json'),
      input: {
        artifactsDir,
        overrides: { validationCommands: { test: 'echo REPO-CONFIG-MARKER && npm test --silent' } },
        repoInstructions: '<AGENTS.md>\nKeep functions small.\n</AGENTS.md>',
      },
    });
    assert.equal(result.outcome, 'success', result.reason);
    const dir = join(artifactsDir, safeSegment(workflowId), 'validators', 'closure.issue');
    const files = await readdir(dir);
    const outputs = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
    assert.ok(
      outputs.some(
        (o) => o.includes('echo REPO-CONFIG-MARKER && npm test --silent') && o.includes('REPO-CONFIG-MARKER\n'),
      ),
      `the overridden test command ran and its output was saved:\n${outputs.join('\n---\n')}`,
    );
    assert.ok(
      outputs.some((o) => o.includes('git status --porcelain')),
      'every validator command has its output saved',
    );
  } finally {
    await rm(artifactsDir, { recursive: true, force: true });
  }
});
