/**
 * Reading the provider's rate-limit headers (`anthropic-ratelimit-*`): what is left in
 * the current window, its limit and when it resets. Pure helpers of the rate governor.
 */

export function headerGetter(
  headers: Readonly<Record<string, string>> | Headers,
): (name: string) => string | undefined {
  if (typeof (headers as Headers).get === 'function') return (name) => (headers as Headers).get(name) ?? undefined;
  const lower = new Map(Object.entries(headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => lower.get(name);
}

export function num(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** RFC 3339 timestamp (Anthropic) or a number of seconds from now. */
export function resetAt(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return now + Math.max(0, seconds) * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

export interface ProviderWindow {
  readonly limit?: number;
  readonly remaining?: number;
  readonly reset?: number;
}

export function windowOf(
  get: (name: string) => string | undefined,
  kind: string,
  now: number,
): ProviderWindow | undefined {
  const limit = num(get(`anthropic-ratelimit-${kind}-limit`));
  const remaining = num(get(`anthropic-ratelimit-${kind}-remaining`));
  const reset = resetAt(get(`anthropic-ratelimit-${kind}-reset`), now);
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined;
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(remaining === undefined ? {} : { remaining }),
    ...(reset === undefined ? {} : { reset }),
  };
}

/** The tighter of two windows (smaller remaining wins; its limit and reset come along). */
export function tighter(a: ProviderWindow | undefined, b: ProviderWindow | undefined): ProviderWindow | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (b.remaining ?? Infinity) < (a.remaining ?? Infinity) ? b : a;
}
