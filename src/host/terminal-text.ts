/**
 * Text a run produced, made safe to print on the operator's terminal. Step summaries,
 * a model's question, a run's reason and the environment lines carry text the model
 * wrote or the tested code printed; written raw, an escape sequence in them would act on
 * the terminal of whoever runs `start-run --follow` or `status`: OSC 52 sets the
 * clipboard, OSC 0 the window title, `\r` with CSI `2K` erases the line and prints
 * another (a fake "outcome: success"). So control characters (C0 but newline and tab,
 * DEL, C1) and the bidirectional overrides that reorder what is shown are printed as
 * visible escapes (`\x1b`, `\u202e`) instead. terminalText and terminalLine are PURE;
 * printLine is the CLI's print boundary for its own lines (a command's human output and
 * notes, the errors it reports). `--json` output is written as is: JSON.stringify escapes
 * C0 (ESC, BEL, CR: every sequence above) but leaves DEL, C1 and the bidi overrides raw
 * (so does jq's output): JSON is for programs, not read raw on a terminal.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every character that could drive the terminal shown as an escape; newlines and tabs kept. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** One line of `text`: as terminalText, and its line breaks turned into spaces. */
export function terminalLine(text: string): string {
  return terminalText(text.replace(/\s*\n\s*/g, ' '));
}

// What JSON.stringify leaves raw of UNSAFE: C0 it escapes itself.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify(value) with DEL, C1 and the bidi overrides as `\uXXXX` escapes too: the same value, terminal-safe. */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Writes `text` as terminalText and a line break to `stream` (stdout or stderr). */
export function printLine(stream: { write(chunk: string): boolean }, text: string): boolean {
  return stream.write(`${terminalText(text)}\n`);
}
