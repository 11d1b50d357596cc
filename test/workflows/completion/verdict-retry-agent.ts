/**
 * The intents fixture under count:iteration 4 with closureGrace 1 (a closing at
 * iteration 3 is not accepted yet), optionally with a verdict retry template. Shared by
 * verdict-retry.test.ts and test/record-histories.ts.
 */
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionRule } from '../../../src/dev/model-server/session-script.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'agents', 'intents');

export async function budgetAgent(template?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-'));
  await cp(FIXTURE, dir, { recursive: true });
  const agent = JSON.parse(await readFile(join(dir, 'agent.json'), 'utf8')) as { runner: Record<string, unknown> };
  agent.runner['verdict'] = { type: 'count:iteration', config: { maxIterations: 4, closureGrace: 1 } };
  await writeFile(join(dir, 'agent.json'), JSON.stringify(agent, null, 2));
  if (template !== undefined) {
    await mkdir(join(dir, 'prompts', 'steps', 'retry', 'done'), { recursive: true });
    await writeFile(join(dir, 'prompts', 'steps', 'retry', 'done', 'f_failed_verdict-not-met.md'), template);
  }
  return dir;
}

export const rule = (
  id: string,
  when: string | string[],
  stepId: string,
  json: Record<string, unknown>,
  times?: number,
): SessionRule =>
  ({
    id,
    when: { promptContains: when },
    ...(times === undefined ? {} : { times }),
    respond: { json: { stepId, summary: id, ...json } },
  }) as SessionRule;

export const plan = rule('plan', 'Step initial.plan', 'initial.plan', {
  next_action: { action: 'next' },
  analysis: { note: 'n' },
});
export const build = rule('build', 'Step continuation.build', 'continuation.build', {
  next_action: { action: 'handoff' },
});
export const closing = rule('close', 'Step closure.done', 'closure.done', { next_action: { action: 'closing' } });
/** Iteration 3's closing meets the verdict before its budget: 3 < 4. */
export const REASON = '1 of 4 iterations remain.';

/** The build step's answer is not JSON twice (answer and repair turn) after the verdict: a schema failure. */
export const garbageAfterVerdict = {
  id: 'garbage',
  when: { promptContains: ['Step continuation.build', REASON] },
  times: 2,
  respond: { rawText: 'this is not JSON' },
} as SessionRule;

export const buildToldWhyAgain = rule(
  'build-told-why-again',
  ['Step continuation.build', REASON],
  'continuation.build',
  {
    next_action: { action: 'handoff' },
  },
);
