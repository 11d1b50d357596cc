/**
 * Text a hostile model or repository could plant in what the CLI prints (a step summary,
 * a reason, a priority, an issue title): an OSC 52 clipboard write, an OSC 0 window title,
 * `\r` + CSI 2K (erase the line, print a fake one), a C1 CSI and a bidi override. And the
 * check that none of it reached the operator's terminal raw.
 */
import assert from 'node:assert/strict';

export const HOSTILE =
  'Done \u001b]52;c;cHduZWQ=\u0007\u001b]0;title\u0007\r\u001b[2Koutcome: success \u009b31m \u202eevil';

/** Any character that drives a terminal or reorders the line (newline and tab are fine). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Fails naming where the first control character is, with its surroundings escaped. */
export function assertTerminalSafe(text: string, what: string): void {
  const at = text.search(TERMINAL_CONTROL);
  if (at < 0) return;
  const around = JSON.stringify(text.slice(Math.max(0, at - 60), at + 60));
  assert.fail(`${what} carries a raw control character at ${at}: ${around}`);
}
