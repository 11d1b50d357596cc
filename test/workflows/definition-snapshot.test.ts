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
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { loadSessionScript, type SessionRule } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const EDIT = 'EDITED-MID-RUN';
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
        while (server.stats().requests === 0) await new Promise((r) => setTimeout(r, 10));
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
