/**
 * One redactor for everything the worker persists: failure messages and details
 * (workflow history), artifacts (transcripts, checkpoints, tool output) and log lines,
 * and for the GitHub and git code that holds a token (`redactorFor`).
 * It knows the worker's secret values (model key, GitHub token, the password in a
 * base URL) in every spelling they can surface in (the simple encodings of
 * `secret-encodings.ts`, the Basic auth header we hand to git), key-shaped strings and
 * auth headers, and credentials written into any URL (`scheme://user:pass@host`).
 * Secrets are kept out of the agent's reach by construction; this is the second line.
 */
import { MIN_SECRET_LENGTH, secretEncodings } from './secret-encodings.js';

export const REDACTED = '[REDACTED]';

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
export function secretSpellings(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const basic = Buffer.from(`x-access-token:${secret}`, 'utf8').toString('base64');
  return [basic, ...secretEncodings(secret)];
}

function userinfoOf(value: string): string[] {
  try {
    const url = new URL(value);
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    const both = user && pass ? `${user}:${pass}` : '';
    // A short password is still replaced as written; only its encodings need the minimum length.
    return [pass, url.password, both, ...secretEncodings(pass), ...secretEncodings(both)];
  } catch {
    return [];
  }
}

/** The secret values found in `env` (empty and very short values are ignored: they would match everywhere). */
export function secretValuesOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const key of SECRET_ENV_KEYS) {
    const v = env[key]?.trim();
    if (v) for (const s of secretSpellings(v)) values.add(s);
  }
  for (const key of URL_ENV_KEYS) {
    const v = env[key]?.trim();
    if (v) for (const s of userinfoOf(v)) if (s.length >= 4) values.add(s);
  }
  return [...values];
}

/** Removes credentials from a URL (for messages that must name the endpoint). */
export function stripUserinfo(text: string): string {
  return text.replace(URL_USERINFO, `$1${REDACTED}@`);
}

/** A redactor for these spellings (precomputed once: it runs on every tool output). */
export function createRedactor(spellings: readonly string[]): Redact {
  // Longest first, so a spelling containing another is replaced whole.
  const secrets = [...new Set(spellings)].sort((a, b) => b.length - a.length);
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

/** A redactor for one secret (a GitHub token), built once for code paths that redact many strings. */
export function redactorFor(secret: string | undefined): Redact {
  return createRedactor(secret === undefined ? [] : secretSpellings(secret.trim()));
}

/** Redacts one string; prefer `redactorFor` when redacting more than one. */
export function redactSecret(text: string, secret: string | undefined): string {
  return redactorFor(secret)(text);
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
