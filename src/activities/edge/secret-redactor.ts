/**
 * One redactor for everything the worker persists: failure messages and details
 * (workflow history), artifacts (transcripts, checkpoints, tool output) and log lines.
 * It knows the worker's secret values (model key, GitHub token, the password in a
 * base URL) in every spelling they can surface in, key-shaped strings and auth
 * headers, and credentials written into any URL (`scheme://user:pass@host`).
 */
import { REDACTED } from '../github/redact-secret.js';

export type Redact = (text: string) => string;

/** Environment variables whose values are secrets wherever they appear. */
export const SECRET_ENV_KEYS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN'] as const;
/** Environment variables holding URLs whose userinfo is a secret. */
export const URL_ENV_KEYS = ['ANTHROPIC_BASE_URL', 'HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'] as const;

const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@"'<>]+(?::[^/\s@"'<>]*)?@/gi;
const KEY_SHAPES =
  /\b(sk-ant-[A-Za-z0-9_-]{6,}|sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g;
const AUTH_HEADERS = /\b(x-api-key|authorization)(["']?\s*[:=]\s*["']?)(?:(?:Bearer|Basic|token)\s+)?[^\s"',}]+/gi;

/** The spellings of a secret that may appear in text we did not write ourselves. */
function spellings(secret: string): string[] {
  const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
  return [secret, encodeURIComponent(secret), b64(secret), b64(`x-access-token:${secret}`)].filter(
    (s) => s.length >= 6,
  );
}

function userinfoOf(value: string): string[] {
  try {
    const url = new URL(value);
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    return [
      pass,
      url.password,
      user && pass ? `${user}:${pass}` : '',
      user && pass ? Buffer.from(`${user}:${pass}`).toString('base64') : '',
    ];
  } catch {
    return [];
  }
}

/** The secret values found in `env` (empty and very short values are ignored: they would match everywhere). */
export function secretValuesOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const key of SECRET_ENV_KEYS) {
    const v = env[key]?.trim();
    if (v) for (const s of spellings(v)) values.add(s);
  }
  for (const key of URL_ENV_KEYS) {
    const v = env[key]?.trim();
    if (v) for (const s of userinfoOf(v)) if (s.length >= 4) values.add(s);
  }
  // Longest first, so a secret containing another is replaced whole.
  return [...values].sort((a, b) => b.length - a.length);
}

/** Removes credentials from a URL (for messages that must name the endpoint). */
export function stripUserinfo(text: string): string {
  return text.replace(URL_USERINFO, `$1${REDACTED}@`);
}

export function createRedactor(secrets: readonly string[]): Redact {
  return (text) => {
    let result = text;
    for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    return stripUserinfo(result).replace(KEY_SHAPES, REDACTED).replace(AUTH_HEADERS, `$1$2${REDACTED}`);
  };
}

/** The redactor for a worker's environment. */
export function redactorForEnv(env: Readonly<Record<string, string | undefined>>): Redact {
  return createRedactor(secretValuesOf(env));
}

/** Redacts every string inside a JSON-like value (keys too); other values pass unchanged. */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, redact)) as T;
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [redact(k), redactDeep(v, redact)]),
    ) as T;
  }
  return value;
}

/** A bounded, redacted excerpt of text we received (a malformed answer, a stray output). */
export function redactedExcerpt(text: string, redact: Redact, maxChars = 500): string {
  const clean = redact(text);
  return clean.length > maxChars ? `${clean.slice(0, maxChars)}… (${clean.length} chars)` : clean;
}
