/**
 * The definition is a snapshot (seed 001: configuration is fixed for the run), end to
 * end on the real dev server: the default playbook runs from a copy of the agent, and
 * while its first step talks to the (scripted) model the test edits the next step's
 * prompt file and the system prompt. Every later request must still carry the text the
 * run started with: a rule that matches the edited text answers an error, and the demo's
 * own rules (which require the original step headings) must all be used.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { loadSessionScript, type SessionRule } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';

after(teardownEnv);

const EDIT = 'EDITED-MID-RUN';
const INTENTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents', 'intents');
const REPRODUCE = join('prompts', 'steps', 'continuation', 'reproduce', 'f_default.md');
const SYSTEM = join('prompts', 'system.md');

test('a prompt file edited during a run does not change what the model receives later in that run', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'snapshot-run-'));
  try {
    const agentDir = join(dir, 'agent');
    for (const part of ['registry', 'prompts'])
      await cp(join(PROJECT_ROOT, part), join(agentDir, part), { recursive: true });
    const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
    const rules: SessionRule[] = [
      { id: 'edited-step', when: { promptContains: EDIT }, respond: { error: editedError } },
      { id: 'edited-system', when: { systemContains: EDIT }, respond: { error: editedError } },
      // The first step's first answer waits, so the edit lands while the run is in flight.
      ...demo.rules.map((r) =>
        r.id === 'understand-explore' ? { ...r, respond: { ...r.respond, delayMs: 1500 } } : r,
      ),
    ];
    let editedAt = -1;
    const { result, model } = await runScenario({
      session: { ...demo, rules },
      agentDir,
      during: async (_handle, server) => {
        await until(
          'the run to reach its first model call',
          () => (server.stats().requests > 0 ? true : undefined),
          180_000,
          10,
        );
        editedAt = server.stats().requests;
        const step = await readFile(join(agentDir, REPRODUCE), 'utf8');
        await writeFile(join(agentDir, REPRODUCE), step.replace('# Step continuation.reproduce', `# Step ${EDIT}`));
        await writeFile(join(agentDir, SYSTEM), `${EDIT}\n${await readFile(join(agentDir, SYSTEM), 'utf8')}`);
      },
    });
    assert.equal(editedAt, 1, 'the files were edited during the first step, before any later request');
    assert.equal(result.outcome, 'success', result.reason);
    const stats = model.stats();
    assert.equal(stats.byRule['edited-step'], undefined, 'no request carried the edited step prompt');
    assert.equal(stats.byRule['edited-system'], undefined, 'no request carried the edited system prompt');
    assert.equal(stats.byRule['reproduce-answer'], 1, 'the reproduce step got its original prompt');
    assert.equal(stats.unmatched, 0);
    assert.match(await readFile(join(agentDir, REPRODUCE), 'utf8'), new RegExp(EDIT), 'the edit did happen on disk');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const editedError = { status: 400, type: 'invalid_request_error', message: 'the request carried an edited prompt' };

/**
 * Every other kind of file a run reads, edited while its first step talks to the model:
 * the custom completion handler, the verdict's retry template, the completion
 * conditions' retry template, a step prompt, the system prompt, the step schema, the
 * registry and agent.json. Each edit carries EDIT (or breaks the file); a request that
 * carries EDIT is answered with an error, and the trail proves each original file did
 * its part: the condition retry prompt (iteration 4), the handler's "not yet" at
 * iteration 4 and its "done" at 5, and the verdict retry prompt with the handler's
 * reason (iteration 5).
 */
test('the custom handler, both retry templates and every other definition file are read from the snapshot', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'snapshot-kinds-'));
  try {
    const agentDir = join(dir, 'agent');
    await cp(INTENTS, agentDir, { recursive: true });
    const agentFile = join(agentDir, 'agent.json');
    const agent = JSON.parse(await readFile(agentFile, 'utf8')) as { runner: Record<string, unknown> };
    agent.runner['verdict'] = { type: 'meta:custom', config: { handlerPath: 'handler.mjs', maxIterations: 8 } };
    await writeFile(agentFile, JSON.stringify(agent, null, 2));
    const handler = (body: string): string => `export default function ({ iteration }) { return ${body}; }\n`;
    const retryDir = join(agentDir, 'prompts', 'steps', 'retry', 'done');
    await mkdir(retryDir, { recursive: true });
    const original: Record<string, string> = {
      'handler.mjs': handler('{ done: iteration >= 5, reason: `HANDLER-ORIGINAL at ${iteration}` }'),
      'prompts/steps/retry/done/f_failed_verdict-not-met.md': 'VERDICT-ORIGINAL {{reason}}\n',
      'prompts/steps/retry/done/f_failed.md': 'CONDITION-ORIGINAL: remove what is left uncommitted.\n',
    };
    for (const [file, text] of Object.entries(original)) await writeFile(join(agentDir, file), text);
    const edits: Record<string, string> = {
      'handler.mjs': handler(`{ done: false, reason: '${EDIT} handler' }`),
      'prompts/steps/retry/done/f_failed_verdict-not-met.md': `${EDIT} {{reason}}\n`,
      'prompts/steps/retry/done/f_failed.md': `${EDIT} condition\n`,
      'prompts/steps/continuation/build/f_default.md': `# Step continuation.build ${EDIT}\n`,
      'prompts/system.md': `${EDIT} system\n`,
      'schemas/flow.schema.json': `{ "${EDIT}": `,
      'steps_registry.json': `{ "${EDIT}": `,
      'agent.json': `{ "${EDIT}": `,
    };
    const json = (id: string, stepId: string, when: string | string[], body: Record<string, unknown>, turn?: number) =>
      ({
        id,
        when: { promptContains: when, ...(turn === undefined ? {} : { turn }) },
        times: 1,
        respond: { json: { stepId, summary: id, ...body } },
      }) as SessionRule;
    const bash = (id: string, when: string | string[], command: string): SessionRule => ({
      id,
      when: { promptContains: when, turn: 0 },
      times: 1,
      respond: { toolUse: [{ name: 'bash', input: { command } }] },
    });
    const closing = { next_action: { action: 'closing' } };
    const planned = { next_action: { action: 'next' }, analysis: { note: 'n' } };
    const rules: SessionRule[] = [
      { id: 'edited-prompt', when: { promptContains: EDIT }, respond: { error: editedError } },
      { id: 'edited-system', when: { systemContains: EDIT }, respond: { error: editedError } },
      // Iteration 1: the edits land while this answer waits.
      {
        id: 'plan',
        when: { promptContains: 'Step initial.plan' },
        respond: { delayMs: 1500, json: { stepId: 'initial.plan', summary: 'plan', ...planned } },
      },
      // Iteration 5: the verdict's retry prompt, made of the original template and handler reason.
      json(
        'build-told-why',
        'continuation.build',
        ['Step continuation.build', 'VERDICT-ORIGINAL HANDLER-ORIGINAL at 4'],
        { next_action: { action: 'handoff' } },
      ),
      // Iteration 2.
      json('build', 'continuation.build', 'Step continuation.build', { next_action: { action: 'handoff' } }),
      // Iteration 4: the conditions' retry prompt (the original template) is the whole prompt.
      bash('clean', 'CONDITION-ORIGINAL', 'rm -f left-over.txt'),
      json('close-clean', 'closure.done', 'CONDITION-ORIGINAL', closing, 1),
      // Iteration 3: a file left uncommitted fails git-clean.
      bash('dirty', 'Step closure.done', 'echo x > left-over.txt'),
      json('close-dirty', 'closure.done', 'Step closure.done', closing, 1),
      // Iteration 6: the criterion was met at iteration 5.
      json('close', 'closure.done', 'Step closure.done', closing, 0),
    ];
    const { result, model } = await runScenario({
      session: { name: 'snapshot-kinds', rules },
      agentDir,
      during: async (_handle, server) => {
        await until(
          'the run to reach its first model call',
          () => (server.stats().requests > 0 ? true : undefined),
          180_000,
          10,
        );
        for (const [file, text] of Object.entries(edits)) await writeFile(join(agentDir, file), text);
      },
    });
    const trail = result.steps.map((s) => `${s.iteration}:${s.stepId}:${s.intent ?? ''}`);
    assert.equal(result.outcome, 'success', `${result.reason} ${JSON.stringify(model.stats().log)}`);
    assert.deepEqual(trail, [
      '1:initial.plan:next',
      '2:continuation.build:handoff',
      '3:closure.done:closing',
      '4:closure.done:closing',
      '5:continuation.build:handoff',
      '6:closure.done:closing',
    ]);
    assert.match(result.reason, /HANDLER-ORIGINAL at 5/, 'the original handler said done');
    const stats = model.stats();
    assert.equal(stats.byRule['edited-prompt'], undefined, 'no request carried an edited prompt or template');
    assert.equal(stats.byRule['edited-system'], undefined, 'no request carried the edited system prompt');
    assert.equal(stats.byRule['close-clean'], 1, 'the conditions retry prompt came from the original template');
    assert.equal(stats.byRule['build-told-why'], 1, 'the verdict retry prompt: original template, original handler');
    assert.equal(stats.unmatched, 0);
    assert.equal(await readFile(join(agentDir, 'handler.mjs'), 'utf8'), edits['handler.mjs'], 'the edit did happen');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
