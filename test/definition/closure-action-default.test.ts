/**
 * The closure action an agent gets when it declares none. Upstream changes an issue's
 * state only for a `poll:state` verdict, so an agent in the upstream format (a
 * `count:iteration` considerer/detailer/triager, a `detect:graph` flow) is label-only
 * unless it says otherwise, with a load warning naming the choice and the override; an
 * agent in the seed format, the project's default agent and a `poll:state` agent close.
 * Every agent here is written by the test, in upstream's shape.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { loadAgentDefinition } from '../../src/definition/load/load-agent-definition.js';
import { chooseClosureAction, closureActionNotice } from '../../src/definition/normalise/closure-action.js';
import type { RawAgentFile } from '../../src/definition/load/raw-files.js';
import { tempDir, writeJson, writeText } from './temp-dirs.js';

interface Shape {
  readonly verdict?: { type: string; config?: Record<string, unknown> };
  readonly github?: Record<string, unknown>;
}

/** One ungated closure step answering an issue: the shape of upstream's considerer. */
function writeAnswerAgent(shape: Shape): string {
  const dir = tempDir('closure-default-');
  writeJson(dir, 'agent.json', {
    version: '1.0.0',
    name: 'answerer',
    displayName: 'Answerer',
    description: 'Reads an issue and answers it in a comment.',
    parameters: { issue: { type: 'number', description: 'the issue', required: true, cli: '--issue' } },
    runner: {
      flow: { systemPromptPath: 'prompts/system.md', prompts: { registry: 'steps_registry.json' } },
      ...(shape.verdict === undefined ? {} : { verdict: shape.verdict }),
      boundaries: { allowedTools: ['Read', 'Glob', 'Grep'], permissionMode: 'bypassPermissions' },
      ...(shape.github === undefined ? {} : { integrations: { github: shape.github } }),
    },
  });
  const entryKey = shape.verdict?.type ?? 'iterationBudget';
  writeJson(dir, 'steps_registry.json', {
    agentId: 'answerer',
    version: '1.0.0',
    c1: 'steps',
    entryStepMapping: { [entryKey]: 'answer' },
    steps: {
      answer: {
        stepId: 'answer',
        name: 'Answer',
        stepKind: 'closure',
        c2: 'closure',
        c3: 'answer',
        edition: 'default',
        uvVariables: ['issue'],
        usesStdin: false,
      },
    },
  });
  writeText(dir, 'prompts/system.md', 'You answer issues.\n');
  writeText(dir, 'prompts/steps/closure/answer/f_default.md', 'Answer issue {uv-issue}.\n');
  return dir;
}

async function loaded(shape: Shape) {
  const result = await loadAgentDefinition(writeAnswerAgent(shape));
  if (!result.ok) assert.fail(result.problems.map((p) => `${p.code} ${p.message}`).join('\n'));
  return { definition: result.definition, codes: result.warnings.map((w) => w.code) };
}

const countIteration = { type: 'count:iteration', config: { maxIterations: 1 } };

test('an upstream count:iteration agent with no closure action is label-only, and the load says so', async () => {
  const { definition, codes } = await loaded({ verdict: countIteration });
  assert.equal(definition.closureAction, 'label-only');
  assert.deepEqual(codes, ['CLOSURE_ACTION_DEFAULTED']);
  const line = definition.warnings.find((w) => w.includes('CLOSURE_ACTION_DEFAULTED')) ?? '';
  assert.match(line, /agent\.json#\/runner\/integrations\/github\/defaultClosureAction/);
  assert.match(line, /label-only/);
  assert.match(line, /count:iteration/);
  assert.match(line, /"defaultClosureAction": "close"/, 'how to override it');
  assert.equal(closureActionNotice(definition), line, 'the line `start` shows');
});

test('with GitHub on, the inferred label-only does not switch the closure prompt to a label-only variant', async () => {
  const { definition } = await loaded({ verdict: countIteration, github: { enabled: true } });
  assert.equal(definition.closureAction, 'label-only');
  assert.equal(definition.closureAdaptation, undefined, 'upstream adapts the prompt only to a declared action');
});

test('every upstream verdict but poll:state defaults to label-only', async () => {
  // detect:graph needs a gated flow (a gateless one is STEP_MACHINE_WITHOUT_GATE): its
  // default is checked on agent.json alone, by the chooseClosureAction test below.
  for (const type of ['detect:keyword', 'count:check']) {
    const config: Record<string, unknown> = { maxIterations: 3 };
    if (type === 'detect:keyword') config['verdictKeyword'] = 'DONE';
    if (type === 'count:check') config['maxChecks'] = 2;
    const { definition } = await loaded({ verdict: { type, config } });
    assert.equal(definition.closureAction, 'label-only', type);
  }
});

test('a declared closure action wins, with no warning', async () => {
  for (const action of ['close', 'label-only', 'label-and-close'] as const) {
    const { definition, codes } = await loaded({
      verdict: countIteration,
      github: { enabled: true, defaultClosureAction: action },
    });
    assert.equal(definition.closureAction, action);
    assert.ok(!codes.includes('CLOSURE_ACTION_DEFAULTED'), action);
    assert.equal(closureActionNotice(definition), undefined);
  }
});

test('poll:state, the seed format and no verdict at all keep close', async () => {
  const poll = await loaded({ verdict: { type: 'poll:state', config: { maxIterations: 5 } } });
  assert.equal(poll.definition.closureAction, 'close');
  const seed = await loaded({ verdict: { type: 'iterationBudget', config: { maxIterations: 1 } } });
  assert.equal(seed.definition.closureAction, 'close');
  const none = await loaded({});
  assert.equal(none.definition.closureAction, 'close');
  for (const codes of [poll.codes, seed.codes, none.codes]) assert.ok(!codes.includes('CLOSURE_ACTION_DEFAULTED'));
});

test("the project's default agent closes its issues", async () => {
  const result = await loadAgentDefinition(fileURLToPath(new URL('../../', import.meta.url)));
  assert.ok(result.ok);
  assert.equal(result.definition.closureAction, 'close');
});

test('chooseClosureAction is pure: same answer for the same agent.json', () => {
  const agent = { name: 'a', runner: { verdict: { type: 'detect:graph' } } } as RawAgentFile;
  const first = chooseClosureAction(agent, 'agent.json');
  assert.deepEqual(chooseClosureAction(agent, 'agent.json'), first);
  assert.equal(first.action, 'label-only');
  assert.equal(first.declared, undefined);
  assert.equal(first.notice?.severity, 'warning');
});
