/**
 * `${context.<key>}` in a runner step's args (upstream subprocess-runner): the keys it
 * names, and the substitution. The context is the run's agent parameters plus `issue`
 * (the issue number). Pure: used by the rules at load and by the workflow at run time.
 */

const CONTEXT_PLACEHOLDER = /\$\{context\.([A-Za-z0-9_-]+)\}/g;

/** Context keys every run has, whatever the agent's parameters. */
export const RUNNER_CONTEXT_BUILTINS: readonly string[] = ['issue'];

export function contextKeys(arg: string): string[] {
  return [...arg.matchAll(CONTEXT_PLACEHOLDER)].map((m) => m[1] ?? '');
}

export type SubstitutedArgs =
  { readonly ok: true; readonly args: string[] } | { readonly ok: false; readonly missing: string[] };

/** Replaces every placeholder; a key without a value (or null) fails, as upstream. */
export function substituteContext(
  args: readonly string[],
  context: Readonly<Record<string, string | number | boolean | undefined>>,
): SubstitutedArgs {
  const missing: string[] = [];
  const out = args.map((arg) =>
    arg.replace(CONTEXT_PLACEHOLDER, (whole, key: string) => {
      const value = Object.hasOwn(context, key) ? context[key] : undefined;
      if (value === undefined) {
        if (!missing.includes(key)) missing.push(key);
        return whole;
      }
      return String(value);
    }),
  );
  return missing.length > 0 ? { ok: false, missing } : { ok: true, args: out };
}
