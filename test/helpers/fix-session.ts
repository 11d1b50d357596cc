/**
 * A scripted session of the default playbook that makes one real fix: understand →
 * reproduce (answer only) → implement (one str_replace, then commit) → review →
 * closure. For end-to-end runs on real projects, where the harness's validators (not
 * the script) decide whether the fix is good.
 */
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';

export interface FixSpec {
  readonly name: string;
  readonly fix: { readonly path: string; readonly old: string; readonly new: string };
  readonly testCommand: string;
  /** Said in the understanding; defaults to one criterion naming the file. */
  readonly criteria?: readonly string[];
  /** Tests red on main and left red, classified as unrelated in the closing (`pre_existing_failures`). */
  readonly unrelated?: readonly { readonly test: string; readonly reason: string }[];
}

const rule = (id: string, step: string, turn: number, respond: SessionRule['respond']): SessionRule => ({
  id,
  when: { promptContains: `Step ${step}`, turn },
  respond,
});

const answer = (stepId: string, summary: string, action: string, rest: Record<string, unknown>) => ({
  json: { stepId, status: 'completed', summary, next_action: { action, reason: summary }, ...rest },
});

export function fixSession(spec: FixSpec): SessionScript {
  const criteria = spec.criteria ?? [`${spec.fix.path} behaves as the issue asks`];
  return {
    name: `fix ${spec.name}`,
    model: 'claude-sonnet-4-6',
    rules: [
      rule(
        'understand',
        'initial.understand',
        0,
        answer('initial.understand', 'Criteria set.', 'next', {
          understanding: {
            acceptance_criteria: criteria,
            relevant_files: [spec.fix.path],
            test_command: spec.testCommand,
          },
        }),
      ),
      rule(
        'reproduce',
        'continuation.reproduce',
        0,
        answer('continuation.reproduce', 'The existing tests show the bug.', 'next', {
          reproduction: { kind: 'test', command: spec.testCommand, observed: 'fails' },
        }),
      ),
      rule('implement-edit', 'continuation.implement', 0, {
        toolUse: [
          {
            name: 'str_replace_based_edit_tool',
            input: { command: 'str_replace', path: spec.fix.path, old_str: spec.fix.old, new_str: spec.fix.new },
          },
        ],
      }),
      rule('implement-commit', 'continuation.implement', 1, {
        toolUse: [{ name: 'bash', input: { command: `git add -A && git commit -q -m 'Fix #1'` } }],
      }),
      rule(
        'implement-answer',
        'continuation.implement',
        2,
        answer('continuation.implement', 'Fixed and committed.', 'next', {
          work: { changes: `${spec.fix.path}: fixed`, tests: `${spec.testCommand}: left to the validators` },
        }),
      ),
      rule(
        'review',
        'verification.review',
        0,
        answer('verification.review', 'Criteria met; no problems.', 'next', {
          review: { criteria: criteria.map((c) => ({ criterion: c, met: true, evidence: 'the diff' })), problems: [] },
        }),
      ),
      rule(
        'closure',
        'closure.issue',
        0,
        answer('closure.issue', 'Done.', 'closing', {
          verdict: 'done',
          evidence: { git_status: '', tests: `${spec.testCommand}: pass`, commands: [] },
          ...(spec.unrelated === undefined
            ? {}
            : { pre_existing_failures: spec.unrelated.map((u) => ({ ...u, unrelated: true })) }),
        }),
      ),
    ],
  };
}
