/**
 * Which completion step guards a closure step: ONE rule, used by the run (whose
 * conditions run after a `closing`), by the load warnings and by the docs
 * (registry-reference §6). PURE.
 *
 * The seed vocabulary (docs/registry-reference.md) keys `completionSteps` by the closure
 * step they belong to (`completionSteps["closure.issue"]` for closure step
 * `closure.issue`), so a closure step is guarded by the completion step with its own id.
 * Some registries declare a single completion step under another name (`complete.issue`):
 * when a registry declares exactly one completion step, it guards every closure step without one of its
 * own. With several declared, a closure step with none of its own has no conditions
 * (the load warns), and a completion step matching no closure step never runs (the
 * load warns too).
 */

export type CompletionGuard =
  | { readonly kind: 'own'; readonly completionStepId: string }
  | { readonly kind: 'only'; readonly completionStepId: string }
  | { readonly kind: 'none' };

/** `declared` in declaration order (the registry's key order). */
export function completionGuardFor(closureStepId: string, declared: readonly string[]): CompletionGuard {
  if (declared.includes(closureStepId)) return { kind: 'own', completionStepId: closureStepId };
  const only = declared.length === 1 ? declared[0] : undefined;
  return only === undefined ? { kind: 'none' } : { kind: 'only', completionStepId: only };
}
