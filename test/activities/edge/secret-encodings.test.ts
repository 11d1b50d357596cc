/** The redactor's second line: a canary secret in each simple encoding is redacted, ordinary text is not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIN_SECRET_LENGTH, secretEncodings } from '../../../src/activities/edge/secret-encodings.js';
import { redactorFor, redactorForEnv } from '../../../src/activities/edge/secret-redactor.js';

// `?>` and `~~` make base64 `+` and `/` appear, so the url-safe forms differ from the standard ones.
const CANARY = 'canary-SECRET-key?>~~0123456789';
const bytes = Buffer.from(CANARY, 'utf8');
const b64 = (b: Buffer): string => b.toString('base64');
const urlSafe = (s: string): string => s.replace(/\+/g, '-').replace(/\//g, '_');
const everyByte = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');

/** The encoded canary inside a longer base64 stream, with the secret `offset` bytes past a 3-byte boundary. */
function inStream(offset: number, encode: (b: Buffer) => string): string {
  return encode(Buffer.concat([Buffer.from('prefix!!!!!'.slice(0, 9 + offset)), bytes, Buffer.from(' and more')]));
}

type Decode = (text: string) => string;
const fromBase64: Decode = (t) => Buffer.from(t, 'base64').toString('latin1');
const fromHex: Decode = (t) => Buffer.from(t, 'hex').toString('latin1');
const fromPercent: Decode = (t) => unescape(t);
const same: Decode = (t) => t;

/** Each encoding with the decoder an attacker (or the reader of a transcript) would apply. */
const ENCODED: ReadonlyArray<readonly [string, string, Decode]> = [
  ['literal', CANARY, same],
  ['reversed', [...CANARY].reverse().join(''), (t) => [...t].reverse().join('')],
  ['base64 on its own', b64(bytes), fromBase64],
  ['base64url on its own', urlSafe(b64(bytes)).replace(/=+$/, ''), fromBase64],
  ['hex lower', bytes.toString('hex'), fromHex],
  ['hex upper', bytes.toString('hex').toUpperCase(), fromHex],
  ['encodeURIComponent', encodeURIComponent(CANARY), fromPercent],
  ['percent, every byte, upper', everyByte, fromPercent],
  ['percent, every byte, lower', everyByte.toLowerCase(), fromPercent],
  ['base64 stream, offset 0', inStream(0, b64), fromBase64],
  ['base64 stream, offset 1', inStream(1, b64), fromBase64],
  ['base64 stream, offset 2', inStream(2, b64), fromBase64],
  ['base64url stream, offset 1', inStream(1, (b) => urlSafe(b64(b))), fromBase64],
  ['base64url stream, offset 2', inStream(2, (b) => urlSafe(b64(b))), fromBase64],
];

const REDACTORS = [
  ['token', redactorFor(CANARY)],
  ['env', redactorForEnv({ GITHUB_TOKEN: CANARY })],
] as const;

for (const [which, redact] of REDACTORS) {
  for (const [name, encoded, decode] of ENCODED) {
    test(`${name} of the canary is redacted (${which} redactor)`, () => {
      assert.ok(decode(encoded).includes(CANARY), `the ${name} case encodes the canary`);
      const out = redact(`tool output: <${encoded}> done`);
      const inner = /<(.*)>/s.exec(out)?.[1] ?? '';
      assert.match(inner, /\[REDACTED\]/);
      // Not even the middle of the secret can be decoded from what is left.
      assert.ok(!decode(inner).includes(CANARY.slice(3, -3)), `${name} still decodes from ${out}`);
      assert.ok(!out.includes(encoded), `${name} left in ${out}`);
    });
  }
}

test('the base64 stream forms are what an encoder of a longer stream gives', () => {
  // The base64 core of the secret at each offset is a substring of the stream's encoding.
  const spellings = secretEncodings(CANARY);
  for (const offset of [0, 1, 2]) {
    const stream = inStream(offset, b64);
    assert.ok(
      spellings.some((s) => s.length > 20 && stream.includes(s)),
      `no spelling found in the stream at offset ${offset}`,
    );
  }
});

test('ordinary text is untouched, even text that looks encoded', () => {
  const redact = redactorForEnv({ ANTHROPIC_API_KEY: CANARY, GITHUB_TOKEN: 'canary-token-REDACT-5678' });
  const ordinary = [
    'npm test\n> 42 passing (3s)\nAll files | 97.1 | 88.2 |',
    b64(Buffer.from('hello, world: nothing secret in here at all')),
    Buffer.from('another harmless line').toString('hex'),
    encodeURIComponent('a query?with=spaces & symbols'),
    'canary', // a prefix of the secret is not the secret
  ];
  for (const text of ordinary) assert.equal(redact(text), text);
});

test('secrets shorter than the minimum are ignored, in every encoding', () => {
  const short = 'x'.repeat(MIN_SECRET_LENGTH - 1);
  assert.deepEqual(secretEncodings(short), []);
  assert.equal(redactorFor(short)(`${short} ${b64(Buffer.from(short))}`), `${short} ${b64(Buffer.from(short))}`);
});

test('spellings are unique, longest first', () => {
  const spellings = secretEncodings(CANARY);
  assert.deepEqual(
    spellings,
    [...spellings].sort((a, b) => b.length - a.length),
  );
  assert.equal(new Set(spellings).size, spellings.length);
});
