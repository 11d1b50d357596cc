/**
 * The `successWhen` rule of a command validator. PURE.
 *   empty        trimmed stdout is empty (e.g. `git status --porcelain`)
 *   exitCode:N   the command exited with N
 *   contains:S   stdout contains S
 *   matches:RE   stdout matches the regular expression RE
 * An unknown or broken rule never passes: a typo must not turn a gate into a no-op.
 */
export type SuccessRule =
  | { readonly kind: 'empty' }
  | { readonly kind: 'exitCode'; readonly code: number }
  | { readonly kind: 'contains'; readonly text: string }
  | { readonly kind: 'matches'; readonly pattern: RegExp }
  | { readonly kind: 'invalid'; readonly problem: string };

export function parseSuccessWhen(rule: string): SuccessRule {
  if (rule === 'empty') return { kind: 'empty' };
  const colon = rule.indexOf(':');
  const head = colon === -1 ? rule : rule.slice(0, colon);
  const arg = colon === -1 ? '' : rule.slice(colon + 1);
  switch (head) {
    case 'exitCode':
      return /^\d+$/.test(arg)
        ? { kind: 'exitCode', code: Number(arg) }
        : { kind: 'invalid', problem: `exitCode needs a number, got ${JSON.stringify(arg)}` };
    case 'contains':
      return arg === '' ? { kind: 'invalid', problem: 'contains needs a text' } : { kind: 'contains', text: arg };
    case 'matches':
      try {
        return { kind: 'matches', pattern: new RegExp(arg, 'm') };
      } catch (error) {
        return { kind: 'invalid', problem: `matches has an invalid regular expression: ${(error as Error).message}` };
      }
    default:
      return {
        kind: 'invalid',
        problem: `unknown successWhen ${JSON.stringify(rule)} (expected empty, exitCode:N, contains:S or matches:RE)`,
      };
  }
}

/** Whether the command's result satisfies the rule. */
export function satisfies(rule: SuccessRule, result: { readonly stdout: string; readonly exitCode: number }): boolean {
  switch (rule.kind) {
    case 'empty':
      return result.stdout.trim() === '';
    case 'exitCode':
      return result.exitCode === rule.code;
    case 'contains':
      return result.stdout.includes(rule.text);
    case 'matches':
      return rule.pattern.test(result.stdout);
    case 'invalid':
      return false;
  }
}

export function describeRule(rule: SuccessRule): string {
  switch (rule.kind) {
    case 'empty':
      return 'no output';
    case 'exitCode':
      return `exit code ${rule.code}`;
    case 'contains':
      return `output containing ${JSON.stringify(rule.text)}`;
    case 'matches':
      return `output matching /${rule.pattern.source}/`;
    case 'invalid':
      return rule.problem;
  }
}
