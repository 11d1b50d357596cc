/**
 * Every WF-* rule group on a mutation of the valid pipeline: the code, the file and the
 * JSON pointer of the problem; and a file with many problems lists them all at once.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadPipelineDefinition } from '../../../src/definition/pipeline/load-pipeline-definition.js';
import type { Problem } from '../../../src/definition/problem.js';
import { writePipelineRepo } from './pipeline-fixture.js';

type Edit = (w: Record<string, any>) => void;
interface Case {
  readonly name: string;
  readonly edit: Edit;
  readonly expect: readonly (readonly [code: string, pointer: string])[];
  readonly warning?: boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'WF-SCHEMA: required top-level fields',
    edit: (w) => {
      delete w.version;
      w.phases = [];
      delete w.labelMapping;
    },
    expect: [
      ['WF-SCHEMA-001', '/version'],
      ['WF-SCHEMA-002', '/phases'],
      ['WF-SCHEMA-003', '/labelMapping'],
    ],
  },
  {
    name: 'WF-SCHEMA-004 and WF-SCHEMA-005: agents missing, unknown keys',
    edit: (w) => {
      delete w.agents;
      w.extra = 1;
      w.phases.done.color = 'x';
    },
    expect: [
      ['WF-SCHEMA-004', '/agents'],
      ['WF-SCHEMA-005', '/extra'],
      ['WF-SCHEMA-005', '/phases/done/color'],
    ],
  },
  {
    name: 'WF-PHASE: type, agent and priority of actionable phases',
    edit: (w) => {
      w.phases.done.type = 'final';
      delete w.phases['impl-pending'].agent;
      delete w.phases['detail-pending'].priority;
    },
    expect: [
      ['WF-PHASE-001', '/phases/done/type'],
      ['WF-PHASE-002', '/phases/impl-pending/agent'],
      ['WF-PHASE-003', '/phases/detail-pending/priority'],
    ],
  },
  {
    name: 'WF-PHASE-004 (warning): an agent on a terminal phase',
    edit: (w) => {
      w.phases.done.agent = 'implementer';
    },
    expect: [['WF-PHASE-004', '/phases/done/agent']],
    warning: true,
  },
  {
    name: 'WF-LABEL-001: an empty labelMapping',
    edit: (w) => {
      w.labelMapping = {};
      delete w.labels;
    },
    expect: [['WF-LABEL-001', '/labelMapping']],
  },
  {
    name: 'WF-LABEL-002 and WF-LABEL-006: unknown mapped phase, a target phase without a label',
    edit: (w) => {
      w.labelMapping['kind:detail'] = 'detailing';
    },
    expect: [
      ['WF-LABEL-002', '/labelMapping/kind:detail'],
      ['WF-LABEL-006', '/agents/considerer/outputPhases/handoff-detail'],
      ['WF-LABEL-006', '/agents/implementer/fallbackPhases/needs-detail'],
    ],
  },
  {
    name: 'WF-LABEL-003..005: label specs missing, orphaned, bad colour',
    edit: (w) => {
      delete w.labels.done;
      delete w.labels['order:2'];
      w.labels.stale = { color: 'ffffff', description: 'unused' };
      w.labels['kind:impl'].color = '#a2eeef';
    },
    expect: [
      ['WF-LABEL-003', '/labels/done'],
      ['WF-LABEL-003', '/labels/order:2'],
      ['WF-LABEL-004', '/labels/stale'],
      ['WF-LABEL-005', '/labels/kind:impl/color'],
    ],
  },
  {
    name: 'WF-RULE: rule ranges',
    edit: (w) => {
      w.rules = { maxCycles: 0, cycleDelayMs: -1, maxConsecutivePhases: 1.5 };
    },
    expect: [
      ['WF-RULE-001', '/rules/maxCycles'],
      ['WF-RULE-002', '/rules/cycleDelayMs'],
      ['WF-RULE-003', '/rules/maxConsecutivePhases'],
    ],
  },
  {
    name: 'WF-REF-001..004, 007: unknown agents and phases',
    edit: (w) => {
      w.phases['impl-pending'].agent = 'iterator';
      w.agents.considerer.fallbackPhase = 'limbo';
      w.agents.implementer.outputPhase = 'shipped';
      w.agents.detailer.outputPhases['handoff-impl'] = 'impl';
      w.agents.implementer.fallbackPhases['needs-detail'] = 'detail';
    },
    expect: [
      ['WF-REF-001', '/phases/impl-pending/agent'],
      ['WF-REF-002', '/agents/considerer/fallbackPhase'],
      ['WF-REF-003', '/agents/implementer/outputPhase'],
      ['WF-REF-007', '/agents/implementer/fallbackPhases/needs-detail'],
      ['WF-REF-004', '/agents/detailer/outputPhases/handoff-impl'],
    ],
  },
  {
    name: 'WF-REF-003/004: a transformer without outputPhase, a validator without outputPhases',
    edit: (w) => {
      delete w.agents.implementer.outputPhase;
      delete w.agents.detailer.outputPhases;
    },
    expect: [
      ['WF-REF-004', '/agents/detailer/outputPhases'],
      ['WF-REF-003', '/agents/implementer/outputPhase'],
    ],
  },
  {
    name: 'WF-REF-005/006: closeCondition without closeOnComplete, not a verdict',
    edit: (w) => {
      w.agents.detailer.closeCondition = 'blocked';
      w.agents.considerer.closeCondition = 'approved';
    },
    expect: [
      ['WF-REF-006', '/agents/considerer/closeCondition'],
      ['WF-REF-005', '/agents/detailer/closeCondition'],
    ],
  },
  {
    name: 'WF-REF-008/009: prioritizer agent unknown, default label not one of its labels',
    edit: (w) => {
      w.prioritizer.agent = 'triager';
      w.prioritizer.defaultLabel = 'order:9';
    },
    expect: [
      ['WF-REF-009', '/prioritizer/defaultLabel'],
      ['WF-REF-008', '/prioritizer/agent'],
    ],
  },
  {
    name: 'WF-REF-010 and WF-UNSUPPORTED-001 (warnings): an unused agent, ignored upstream keys',
    edit: (w) => {
      w.agents.spare = { role: 'transformer', directory: 'implementer', outputPhase: 'done' };
      w.subjectStore = { path: '.agent/climpt/tmp/issues' };
      w.rules = { rateLimitThreshold: 0.9 };
    },
    expect: [
      ['WF-REF-010', '/agents/spare'],
      ['WF-UNSUPPORTED-001', '/subjectStore'],
      ['WF-UNSUPPORTED-001', '/rules/rateLimitThreshold'],
    ],
    warning: true,
  },
  {
    name: 'WF-AGENT-001: an agent directory that is missing or outside the workflow directory',
    edit: (w) => {
      w.agents.detailer.directory = 'no-such-agent';
      w.agents.considerer.directory = '../considerer';
    },
    expect: [
      ['WF-AGENT-001', '/agents/considerer/directory'],
      ['WF-AGENT-001', '/agents/detailer/directory'],
    ],
  },
];

const pairs = (ps: readonly Problem[]): string[][] => ps.map((p) => [p.code, p.pointer]);

for (const c of CASES) {
  test(c.name, async () => {
    const repo = writePipelineRepo(c.edit);
    const result = await loadPipelineDefinition(repo.workflowPath);
    const listed = c.warning ? result.warnings : result.ok ? [] : result.problems;
    assert.equal(result.ok, c.warning === true, JSON.stringify(!result.ok && result.problems, null, 2));
    assert.deepEqual(pairs(listed).sort(), c.expect.map((e) => [...e]).sort(), JSON.stringify(listed, null, 2));
    for (const p of listed) {
      assert.equal(p.file, 'workflow.json');
      assert.ok(p.expected.length > 0 && p.message.length > 0, 'each problem says what was expected');
    }
  });
}

test("an agent's own problems are listed with its directory and id, with the workflow's problems", async () => {
  const repo = writePipelineRepo((w) => {
    w.phases['impl-pending'].agent = 'iterator';
    w.rules = { maxCycles: 0 };
  });
  rmSync(path.join(repo.agentDir, 'detail-agent', 'steps_registry.json'));
  const result = await loadPipelineDefinition(repo.workflowPath);
  assert.ok(!result.ok);
  const byCode = new Map(result.problems.map((p) => [p.code, p]));
  assert.ok(byCode.has('WF-REF-001') && byCode.has('WF-RULE-001'));
  const agentProblem = result.problems.find((p) => p.file === 'detail-agent/steps_registry.json');
  assert.ok(agentProblem, JSON.stringify(result.problems, null, 2));
  assert.match(agentProblem.message, /^agent 'detailer': /);
});
