/**
 * What bash commands are refused before they run: only obviously mutating commands in a
 * read-only step, and only on machines where the sandbox cannot mount the worktree
 * read-only (see process-isolation). With a mount namespace the read-only step's
 * worktree IS read-only and this check is not used.
 *
 * This is pattern matching on the command text: a guard-rail against honest mistakes,
 * not a boundary (`python -c`, eval, a script file bypass it). There is deliberately no
 * "boundary command" filter any more (`G=git; $G push` passed it): the boundary is that
 * the agent's shell holds no credential (no GITHUB_TOKEN, private HOME without
 * credential files) and, where namespaces allow, has no network at all. See
 * docs/security.md. Which steps are read-only is decided when the definition loads
 * (contracts/step-kind-tools: the step's readOnly, else its permissionMode, else the kind's
 * default, verification read-only; an allowedTools list with no write tool makes every
 * step read-only); tool-dispatcher's policy passes that flag to bash and the editor
 * (tool-policy.test).
 */

export interface PolicyVerdict {
  readonly allowed: boolean;
  readonly reason?: string;
}

const MUTATING_RULES: ReadonlyArray<{ readonly pattern: RegExp; readonly what: string }> = [
  {
    pattern: /(^|[;&|(\s])(rm|rmdir|mv|cp|mkdir|touch|chmod|chown|ln|truncate|dd|tee|install|patch|shred|unlink)\s/,
    what: 'file-changing commands',
  },
  { pattern: /\b(sed|perl)\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*i/, what: 'in-place edits (sed -i, perl -i)' },
  // `>`/`>>` into a file; redirections to /dev/null and fd duplications (2>&1) are fine.
  { pattern: /(^|[^0-9&<>])>{1,2}\s*(?!\s*&|\s*\/dev\/null\b)[^\s&>]/, what: 'output redirection into files' },
  {
    pattern:
      /\bgit\s+(-C\s+\S+\s+)?(commit|add|rm|mv|checkout|switch|reset|restore|stash|merge|rebase|cherry-pick|revert|apply|am|clean|tag|pull|init|worktree)\b/,
    what: 'git commands that change the tree',
  },
  { pattern: /\bgit\s+(-C\s+\S+\s+)?branch\s+-[dDmM]\b/, what: 'git branch -d/-m' },
  {
    pattern: /\b(npm|pnpm|yarn|bun)\s+(install|i|ci|add|remove|rm|uninstall|update|upgrade|publish|version|link)\b/,
    what: 'package installs',
  },
  { pattern: /\b(pip3?|uv|poetry|cargo|go)\s+(install|add|remove|uninstall|get)\b/, what: 'package installs' },
];

export function checkReadOnly(command: string): PolicyVerdict {
  for (const rule of MUTATING_RULES) {
    if (rule.pattern.test(command)) {
      return {
        allowed: false,
        reason: `Refused: this step is read-only and the command looks like it changes files (${rule.what}). Inspect only; report findings in your answer.`,
      };
    }
  }
  return { allowed: true };
}
