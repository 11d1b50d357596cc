/**
 * Plan approval (issue 40), pure: `.agent/config.json`'s `planApproval` says when the
 * plan (the structured output of the agent's entry step) must be approved by a person
 * before the run goes on: `never` (the default), `always`, or `{ maxFiles, paths }` (when
 * the plan names more than `maxFiles` files, or any file matching one of `paths`). The
 * entry step runs read-only while its plan is not approved, so nothing in the worktree
 * changes before `/approve`. Shared by the config check, the CLI and the workflow.
 */

export type PlanApprovalPolicy =
  'never' | 'always' | { readonly maxFiles?: number; readonly paths?: readonly string[] };

/** The comment (or reply) that approves a plan: `/approve` on a line of its own. */
export function isApproval(text: string): boolean {
  return /^[ \t]*\/approve[ \t]*$/im.test(text);
}

/** Every string in an array under a key named like `files` / `relevant_files` in the plan. */
export function planFiles(plan: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, key: string): void => {
    if (Array.isArray(value)) {
      if (/files?$/i.test(key))
        for (const v of value) if (typeof v === 'string' && v.trim() !== '') found.add(v.trim());
      for (const v of value) if (typeof v === 'object') walk(v, key);
    } else if (typeof value === 'object' && value !== null)
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(v, k);
  };
  walk(plan, '');
  return [...found].sort();
}

/** `src/**`, `*.sql`, `db/?.ts`: `**` any depth, `*` within a path segment, `?` one character. */
export function globMatches(glob: string, path: string): boolean {
  const source = glob
    .split(/(\*\*\/?|\*|\?)/)
    .map((part) => {
      if (part === '**' || part === '**/') return '(?:.*/)?' + (part === '**' ? '.*' : '');
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const anchored = glob.includes('/') ? `^${source}$` : `^(?:.*/)?${source}$`;
  return new RegExp(anchored).test(path.replace(/^\.\//, ''));
}

/** Why this plan needs approval under the policy, or undefined when it does not. */
export function approvalReason(policy: PlanApprovalPolicy | undefined, files: readonly string[]): string | undefined {
  if (policy === undefined || policy === 'never') return undefined;
  if (policy === 'always') return 'plan approval is always required';
  const max = policy.maxFiles;
  if (max !== undefined && files.length > max) return `the plan touches ${files.length} files (more than ${max})`;
  for (const glob of policy.paths ?? []) {
    const hit = files.find((f) => globMatches(glob, f));
    if (hit !== undefined) return `the plan touches ${hit} (matches ${glob})`;
  }
  return undefined;
}
