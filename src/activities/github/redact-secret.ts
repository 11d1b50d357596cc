/**
 * Removes a secret from text before it becomes an error message, a log line or a
 * report. The token can surface in more than one spelling: as is, URL-encoded (a
 * remote URL with credentials), and base64-encoded inside the Basic auth header we
 * hand to git, so every spelling is replaced.
 */

export const REDACTED = '[REDACTED]';

/** The spellings of `secret` that may appear in text we did not write ourselves. */
function spellings(secret: string): string[] {
  const basic = Buffer.from(`x-access-token:${secret}`, 'utf8').toString('base64');
  return [
    ...new Set([secret, encodeURIComponent(secret), basic, Buffer.from(secret, 'utf8').toString('base64')]),
  ].filter((s) => s.length >= 4);
}

export function redactSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret === '') return text;
  let result = text;
  for (const spelling of spellings(secret)) result = result.split(spelling).join(REDACTED);
  // Credentials embedded in URLs (`https://user:pass@host`) are never ours to show either.
  return result.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi, `$1${REDACTED}@`);
}

/** A redactor bound to one secret, for code paths that redact many strings. */
export function redactorFor(secret: string | undefined): (text: string) => string {
  return (text) => redactSecret(text, secret);
}
