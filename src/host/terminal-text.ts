/**
 * Text a run produced, made safe to print on the operator's terminal. Step summaries,
 * a model's question, a run's reason and the environment lines carry text the model
 * wrote or the tested code printed; written raw, an escape sequence in them would act on
 * the terminal of whoever runs `start-run --follow` or `status`: OSC 52 sets the
 * clipboard, OSC 0 the window title, `\r` with CSI `2K` erases the line and prints
 * another (a fake "outcome: success"). So control characters (C0 but newline and tab,
 * DEL, C1) and the bidirectional overrides that reorder what is shown are printed as
 * visible escapes (`\x1b`, `\u202e`) instead. PURE.
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
