/**
 * A scripted session of the default playbook whose first step asks a question (the `ask`
 * tool) before it works; its rerun is answered only when the request quotes the answer and
 * the question, so a run that gets through proves the answer reached the next prompt.
 * Used by the reply tests and to record the ask-and-wait history.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

export const ANSWER = 'Add them: sum(a, b) is a + b. ANSWER-42';
export const QUESTION = 'Should sum() add or subtract?';

export function askingSession(): SessionScript {
  const demo = JSON.parse(readFileSync(join(PROJECT_ROOT, 'demo', 'session.json'), 'utf8')) as SessionScript;
  const explore = demo.rules.find((r) => r.id === 'understand-explore')!;
  return {
    ...demo,
    name: 'the first step asks, then goes on with the answer',
    rules: [
      {
        id: 'understand-with-answer',
        when: { promptContains: ['Step initial.understand', `> ${ANSWER}`, QUESTION], turn: 0 },
        times: 1,
        respond: explore.respond,
      },
      {
        id: 'ask',
        when: { promptContains: 'Step initial.understand', turn: 0 },
        times: 1,
        respond: {
          text: 'The issue does not say which behaviour is wanted.',
          toolUse: [{ name: 'ask', input: { question: QUESTION, choices: ['add', 'subtract'] } }],
        },
      },
      ...demo.rules.filter((r) => r.id !== 'understand-explore'),
    ],
  };
}
