/**
 * The simple encodings a secret can be smuggled out in: reversed, base64 (standard and
 * url-safe, with the secret at any byte offset inside a longer stream), hex (lower and
 * upper case) and percent-encoding. Secrets are kept out of the agent's reach by
 * construction (docs/security.md); the redactor that uses these is the second line, so
 * the list is computed once per secret set and matched as plain substrings.
 */

/** Secrets shorter than this are ignored: their spellings would match ordinary text. */
export const MIN_SECRET_LENGTH = 6;

function reversed(secret: string): string {
  return [...secret].reverse().join('');
}

/** Every byte as `%XX` (the form a URL encoder gives when told to encode everything). */
function percentEveryByte(bytes: Buffer): string {
  return [...bytes].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
}

const toUrlSafe = (b64: string): string => b64.replace(/\+/g, '-').replace(/\//g, '_');

/**
 * The base64 characters that encode only the secret's own bits when the secret starts
 * `offset` bytes (0, 1 or 2) into a stream: the characters on either side also carry
 * bits of the neighbouring bytes, so they differ from stream to stream and are left out.
 */
function base64Core(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  const first = Math.ceil((8 * offset) / 6);
  const end = Math.floor((8 * (offset + bytes.length)) / 6);
  return encoded.slice(first, end);
}

/** The secret on its own, base64-encoded with padding, and its core at each offset. */
function base64Forms(bytes: Buffer): string[] {
  const forms = [bytes.toString('base64'), base64Core(bytes, 0), base64Core(bytes, 1), base64Core(bytes, 2)];
  return [...forms, ...forms.map(toUrlSafe)];
}

/**
 * The spellings of `secret` to redact, the literal one included; empty for a secret
 * shorter than MIN_SECRET_LENGTH. Longest first, so a longer spelling that contains a
 * shorter one is replaced whole.
 */
export function secretEncodings(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const everyByte = percentEveryByte(bytes);
  const all = [
    secret,
    reversed(secret),
    encodeURIComponent(secret),
    everyByte,
    everyByte.toLowerCase(),
    hex,
    hex.toUpperCase(),
    ...base64Forms(bytes),
  ];
  return [...new Set(all)].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}
