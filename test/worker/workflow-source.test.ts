/**
 * Where a worker under tsx gets its workflow code: the sources, bundled at start, unless a
 * bundle of them is handed in by path (ISSUE_AGENT_WORKFLOW_BUNDLE, what the test runner
 * does); never that bundle when a plugin must add to the bundle (tracing) or the file is gone.
 * And the kept bundle of the test helpers: read back only under its own key, whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPILED, WORKFLOWS_PATH, workflowSource } from '../../src/worker/workflow-source.js';
import { bundleKey, CACHE_DIR, cachedWorkflowBundle, keep, readKept } from '../helpers/workflow-bundle-cache.js';

test('the sources are bundled at start when no bundle is handed in (under tsx, and in the compiled test tree)', () => {
  // COMPILED follows the module's own file: .ts under tsx, .js in the suite's compiled tree.
  assert.equal(COMPILED, import.meta.url.endsWith('.js'));
  assert.deepEqual(workflowSource({ pluginsChangeBundle: false }, {}), { workflowsPath: WORKFLOWS_PATH });
});

test('a bundle handed in by ISSUE_AGENT_WORKFLOW_BUNDLE is loaded as is, unless a plugin changes the bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'workflow-source-'));
  try {
    const codePath = join(dir, 'bundle.js');
    writeFileSync(codePath, '// a bundle\n');
    const env = { ISSUE_AGENT_WORKFLOW_BUNDLE: codePath };
    assert.deepEqual(workflowSource({ pluginsChangeBundle: false }, env), { workflowBundle: { codePath } });
    assert.deepEqual(workflowSource({ pluginsChangeBundle: true }, env), { workflowsPath: WORKFLOWS_PATH });
    const gone = { ISSUE_AGENT_WORKFLOW_BUNDLE: join(dir, 'missing.js') };
    assert.deepEqual(workflowSource({ pluginsChangeBundle: false }, gone), { workflowsPath: WORKFLOWS_PATH });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the kept bundle is read back only under its own key, whole; a damaged or half-kept one is never read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'workflow-bundle-cache-'));
  try {
    const code = '// a bundle\nexport const x = 1;\n';
    assert.equal(keep(dir, 'k1', code), true);
    assert.deepEqual(readKept(dir, 'k1'), { code, codePath: join(dir, 'k1.js') });
    assert.equal(readKept(dir, 'k2'), undefined, 'another key');
    writeFileSync(join(dir, 'k1.js'), code.slice(0, 10)); // cut short
    assert.equal(readKept(dir, 'k1'), undefined, 'damaged');
    assert.equal(keep(dir, 'k1', code), true);
    rmSync(join(dir, 'k1.json')); // the record is written last: without it, the code is not whole
    assert.equal(readKept(dir, 'k1'), undefined, 'no record');
    assert.equal(keep(join(dir, 'k1.js', 'not-a-dir'), 'k1', code), false, 'a dir that cannot be written');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the suite’s bundle is kept under the key of today’s sources', async () => {
  const { code, codePath } = await cachedWorkflowBundle();
  assert.equal(codePath, join(CACHE_DIR, `${bundleKey()}.js`));
  assert.match(code, /runAgentWorkflow/);
  assert.deepEqual(readKept(CACHE_DIR, bundleKey())?.code, code);
});
