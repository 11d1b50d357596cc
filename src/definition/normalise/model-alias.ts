/**
 * Upstream model names (`sonnet`, `opus`, `haiku`; agent `runner.flow.defaultModel` and
 * step `model`) → model ids. Any other value is taken as a model id as written.
 */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: 'claude-sonnet-4-6',
  opus: 'claude-opus-4-1',
  haiku: 'claude-haiku-4-5',
};

export function modelId(name: string): string {
  return MODEL_ALIASES[name] ?? name;
}
