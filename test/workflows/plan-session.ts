/**
 * The scripted model of the plan-approval tests: the default playbook's fix of the demo
 * repository, whose plan step first tries to write a file (it must fail: the step is
 * read-only until the plan is approved), then answers with the plan; a change request
 * (`CHANGE`) makes it answer again.
 */
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import { fixSession } from '../helpers/fix-session.js';

export const CHANGE = 'please keep the doc comment as it is';

export function planSession(): SessionScript {
  const fix = fixSession({
    name: 'sum',
    fix: { path: 'src/sum.js', old: 'return a - b;', new: 'return a + b;' },
    testCommand: 'npm test --silent',
  });
  const understand = fix.rules.find((r) => r.id === 'understand')!;
  return {
    ...fix,
    rules: [
      {
        id: 'plan-tries-to-write',
        when: { promptContains: 'Step initial.understand', turn: 0 },
        times: 1,
        respond: { toolUse: [{ name: 'bash', input: { command: 'echo planted > src/sum.js; echo "rc=$?"' } }] },
      },
      { ...understand, id: 'plan', when: { promptContains: 'Step initial.understand', turn: 1 }, times: 1 },
      {
        ...understand,
        id: 'plan-again',
        when: { promptContains: ['Step initial.understand', CHANGE], turn: 0 },
        times: 1,
      },
      ...fix.rules.filter((r) => r.id !== 'understand'),
    ],
  };
}
