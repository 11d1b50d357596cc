/**
 * `{uv-name}` substitution. Values are plain data: inserted literally in one pass, so
 * `$`, backticks or a `{uv-other}` inside a value are never interpreted — no shell, no
 * escaping, no recursive substitution (upstream's Breakdown rejected such values).
 */

/**
 * Placeholder names: word characters as upstream (`{uv-initial_work_plan}`), plus dots
 * and dashes, because handoff variables are `uv-<stepId>_<key>` and step ids have dots.
 */
const PLACEHOLDER = /\{uv-([A-Za-z0-9_][A-Za-z0-9_.-]*)\}/g;

export interface Substitution {
  readonly text: string;
  /** Placeholder names that had no value (each listed once, in order of appearance). */
  readonly missing: readonly string[];
}

/** Replaces every `{uv-x}` that has a value; placeholders without one stay as they are. */
export function substituteUv(text: string, variables: Readonly<Record<string, string>>): string {
  return substituteUvChecked(text, variables).text;
}

/** Like substituteUv, and reports the placeholders left without a value. */
export function substituteUvChecked(text: string, variables: Readonly<Record<string, string>>): Substitution {
  const missing: string[] = [];
  const out = text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
    if (value !== undefined) return value;
    if (!missing.includes(name)) missing.push(name);
    return whole;
  });
  return { text: out, missing };
}

/** Names of every `{uv-x}` placeholder in `text`. */
export function placeholderNames(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
}

/** `uv-foo` and `foo` name the same variable. */
export function stripUvPrefix(name: string): string {
  return name.startsWith('uv-') ? name.slice(3) : name;
}
