/**
 * The agent of the unbound-prompt-variable tests (validate, the load, start-run): the
 * upstream-vocabulary fixture plus `continuation.other`, a second flow's step entered only
 * under count:iteration, whose prompt uses {uv-ticket_url}.
 */
import { copyFixture, editJson, writeText } from './temp-dirs.js';

export const OTHER_PROMPT = 'prompts/steps/continuation/other/f_default.md';
export const WORK_PROMPT = 'prompts/steps/continuation/work/f_default.md';

/** A copy of the fixture with the second flow (a temp dir). */
export function twoFlowAgent(): string {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', (r) => {
    const work = r.steps['continuation.work'];
    r.steps['continuation.other'] = { ...work, stepId: 'continuation.other', c3: 'other', inputs: undefined };
    r.entryStepMapping = { 'detect:graph': 'initial.work', 'count:iteration': 'continuation.other' };
  });
  writeText(dir, OTHER_PROMPT, 'Other flow for {uv-topic}: see {uv-ticket_url}.\n');
  return dir;
}
