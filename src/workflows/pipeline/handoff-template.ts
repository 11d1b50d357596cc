/**
 * The handoff comment posted after a transition (upstream handoff-manager.ts), with its
 * template key lookup fixed.
 *
 * Upstream looked up `<agentId><Outcome>` then `<agentId>To<Outcome>` with only the
 * outcome's first letter upper-cased, so its own keys `considererHandoffDetail` and
 * `detailerHandoffImpl` never matched the outcomes `handoff-detail` / `handoff-impl`
 * [BUG]. The rule here, first match wins:
 *   1. `<agentId><OutcomeWords>`     outcome split on `-`, `_`, `.`, `:`, spaces, each word capitalised
 *   2. `<agentId>To<OutcomeWords>`
 *   3. `<agentId><Outcome>`          upstream's literal form (first letter upper-cased)
 *   4. `<agentId>To<Outcome>`
 *   5. `<agentId>:<outcome>`         the outcome verbatim
 * so `handoff-detail` finds `considererHandoffDetail`, and one-word outcomes (`success`,
 * `approved`) find the same keys as upstream.
 */

/** `handoff-detail` → `HandoffDetail`. */
export function camelWords(outcome: string): string {
  return outcome
    .split(/[-_.:\s]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

export function templateKeys(agentId: string, outcome: string): string[] {
  const camel = camelWords(outcome);
  const first = outcome === '' ? '' : outcome[0]!.toUpperCase() + outcome.slice(1);
  const keys = [
    `${agentId}${camel}`,
    `${agentId}To${camel}`,
    `${agentId}${first}`,
    `${agentId}To${first}`,
    `${agentId}:${outcome}`,
  ];
  return [...new Set(keys)];
}

export function findTemplate(
  templates: Readonly<Record<string, string>>,
  agentId: string,
  outcome: string,
): { readonly key: string; readonly template: string } | undefined {
  for (const key of templateKeys(agentId, outcome))
    if (Object.hasOwn(templates, key)) return { key, template: templates[key]! };
  return undefined;
}

/** Replaces `{word}` with its value; unknown placeholders stay as written (upstream). */
export function renderTemplate(template: string, variables: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) =>
    Object.hasOwn(variables, key) ? variables[key]! : match,
  );
}

/**
 * Variables of a handoff comment: the run's handoff data (every step's declared handoff
 * fields, later steps winning; non-strings as JSON), then the pipeline's own facts for
 * names the handoff data does not use: issue, agent, outcome, from, to, cycle.
 */
export function handoffVariables(
  handoff: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  facts: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = { ...facts };
  for (const fields of Object.values(handoff))
    for (const [key, value] of Object.entries(fields))
      out[key] = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return out;
}
