/**
 * The workflow.json loader on a valid consider → detail → implement pipeline: the
 * normalised PipelineDefinition (defaults, agent directories, prefix, labels, hash).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import {
  defaultWorkflowPath,
  loadPipelineDefinition,
  loadPipelineDefinitionOrThrow,
} from '../../../src/definition/pipeline/load-pipeline-definition.js';
import { writePipelineRepo } from './pipeline-fixture.js';

test('a valid pipeline loads with defaults applied and agents resolved beside workflow.json', async () => {
  const repo = writePipelineRepo();
  assert.equal(defaultWorkflowPath(repo.root), repo.workflowPath);
  const result = await loadPipelineDefinition(repo.workflowPath);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.problems, null, 2));
  const d = result.definition;
  assert.equal(d.path, repo.workflowPath);
  assert.equal(d.id, 'docs');
  assert.equal(d.labelPrefix, 'docs');
  assert.equal(d.version, '1.0.0');
  assert.deepEqual(d.rules, { maxCycles: 5, cycleDelayMs: 10000, maxConsecutivePhases: 0 });
  assert.deepEqual(
    d.phases.map((p) => p.id),
    ['impl-pending', 'detail-pending', 'consider-pending', 'done', 'blocked'],
  );
  assert.deepEqual(d.phases[0], { id: 'impl-pending', type: 'actionable', priority: 1, agent: 'implementer' });
  assert.deepEqual(d.phases[3], { id: 'done', type: 'terminal' });
  assert.deepEqual(d.labelMapping[0], ['kind:impl', 'impl-pending']);
  assert.equal(d.labels['kind:impl']?.color, 'a2eeef', 'colours are normalised to lower case');
  const byId = new Map(d.agents.map((a) => [a.id, a]));
  assert.equal(byId.get('detailer')?.agentDir, path.join(repo.agentDir, 'detail-agent'));
  assert.equal(byId.get('considerer')?.agentDir, path.join(repo.agentDir, 'considerer'));
  assert.deepEqual(byId.get('implementer'), {
    id: 'implementer',
    agentDir: path.join(repo.agentDir, 'implementer'),
    fallbackPhase: 'blocked',
    closeOnComplete: true,
    role: 'transformer',
    outputPhase: 'done',
    fallbackPhases: { 'needs-detail': 'detail-pending' },
  });
  assert.equal(byId.get('detailer')?.closeOnComplete, false);
  assert.deepEqual(d.prioritizer, {
    agent: 'considerer',
    agentDir: path.join(repo.agentDir, 'considerer'),
    labels: ['order:1', 'order:2'],
    defaultLabel: 'order:2',
  });
  assert.match(d.commentTemplates['considererHandoffDetail'] ?? '', /Specification requested/);
  assert.match(d.hash, /^[0-9a-f]{64}$/);
  assert.ok(Object.isFrozen(d) && Object.isFrozen(d.agents[0]), 'the definition is a frozen snapshot');
  assert.deepEqual(result.warnings, []);
});

test('id defaults to "default"; explicit rules are kept; the hash follows the file and the agents', async () => {
  const repo = writePipelineRepo((w) => {
    delete w.labelPrefix;
    w.rules = { maxCycles: 7, cycleDelayMs: 0, maxConsecutivePhases: 3 };
  });
  const first = await loadPipelineDefinitionOrThrow(repo.workflowPath);
  assert.equal(first.id, 'default');
  assert.equal(first.labelPrefix, undefined);
  assert.deepEqual(first.rules, { maxCycles: 7, cycleDelayMs: 0, maxConsecutivePhases: 3 });
  assert.equal((await loadPipelineDefinitionOrThrow(repo.workflowPath)).hash, first.hash, 'stable');
  writeFileSync(path.join(repo.agentDir, 'implementer', 'prompts', 'system.md'), 'Changed.\n');
  assert.notEqual((await loadPipelineDefinitionOrThrow(repo.workflowPath)).hash, first.hash, 'an agent file changed');
});

test("the prioritizer may name an agent directory that is not a declared agent (upstream's own file does)", async () => {
  const repo = writePipelineRepo((w) => {
    w.prioritizer.agent = 'implementer';
    w.agents.implementer.directory = 'implementer';
  });
  const d = await loadPipelineDefinitionOrThrow(repo.workflowPath);
  assert.equal(d.prioritizer?.agentDir, path.join(repo.agentDir, 'implementer'));
});

test('a missing file and broken JSON are WF-LOAD-001 and WF-LOAD-003', async () => {
  const repo = writePipelineRepo();
  const missing = await loadPipelineDefinition(path.join(repo.agentDir, 'nope.json'));
  assert.ok(!missing.ok);
  assert.equal(missing.problems[0]?.code, 'WF-LOAD-001');
  writeFileSync(repo.workflowPath, '{ "version": ');
  const broken = await loadPipelineDefinition(repo.workflowPath);
  assert.ok(!broken.ok);
  assert.deepEqual(
    broken.problems.map((p) => [p.code, p.file, p.pointer]),
    [['WF-LOAD-003', 'workflow.json', '']],
  );
  await assert.rejects(loadPipelineDefinitionOrThrow(repo.workflowPath), /invalid workflow file in .*WF-LOAD-003/);
});
