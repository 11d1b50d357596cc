/**
 * What bash commands are refused before they run.
 *
 * 1. Boundary actions (push, PR, issue close, release, GitHub API) are refused in every
 *    step kind: only the harness's boundary hooks do them, after validation.
 * 2. In read-only steps, obviously mutating commands are refused.
 *
 * Limits: this is pattern matching on the command text, a guard-rail against honest
 * mistakes, not a security boundary. A determined command (`python -c`, eval, base64,
 * a script file) can bypass it. The real boundary is that the shell holds no
 * credentials: no GITHUB_TOKEN, no gh/git credential files (private HOME), no API keys.
 */

export interface PolicyVerdict {
  readonly allowed: boolean;
  readonly reason?: string;
}

const BOUNDARY_RULES: ReadonlyArray<{ readonly pattern: RegExp; readonly what: string }> = [
  { pattern: /\bgit\b[^;&|\n]*\bpush\b/, what: 'git push' },
  { pattern: /\bgh\s+issue\s+(close|reopen|delete|transfer|lock)\b/, what: 'gh issue close/reopen' },
  { pattern: /\bgh\s+issue\s+edit\b[^;&|\n]*--state\b/, what: 'gh issue edit --state' },
  { pattern: /\bgh\s+pr\s+(create|merge|close|ready|review|reopen)\b/, what: 'gh pr create/merge' },
  { pattern: /\bgh\s+release\b/, what: 'gh release' },
  { pattern: /\bgh\s+api\b/, what: 'gh api' },
  { pattern: /\bgh\s+repo\s+(create|delete|edit|fork|rename|archive)\b/, what: 'gh repo changes' },
  { pattern: /\bapi\.github\.com\b/, what: 'calls to api.github.com' },
  {
    pattern: /\b(curl|wget|http|https|xh|httpie|aria2c|nc|ncat|socat)\b[^;&|\n]*\bgithub\.com\b/,
    what: 'HTTP clients aimed at github.com',
  },
];

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

export function checkBoundary(command: string): PolicyVerdict {
  for (const rule of BOUNDARY_RULES) {
    if (rule.pattern.test(command)) {
      return {
        allowed: false,
        reason:
          `Refused: ${rule.what} is a boundary action that the harness performs itself after validation. ` +
          'Do not push, open/merge PRs, close issues or call the GitHub API from the shell; ' +
          'finish your work and report it through the closure step.',
      };
    }
  }
  return { allowed: true };
}

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

export function checkCommand(command: string, readOnly: boolean): PolicyVerdict {
  const boundary = checkBoundary(command);
  if (!boundary.allowed) return boundary;
  return readOnly ? checkReadOnly(command) : { allowed: true };
}
