/**
 * Text for the Web UI's "Current Details" (markdown). The UI renders `$…$` as math and
 * draws tables without cell spacing (both seen in a real browser), so amounts are written
 * as `USD 0.0093`, free text has its markdown and math characters escaped, and rows are
 * list items rather than table rows.
 */

/** Characters the UI's markdown (with math) would act on inside free text. */
const ACTIVE_CHARACTERS = /[\\`*_[\]<>|$#~]/g;

/** Free text (summaries, reasons, errors) shown as itself, on one line, at most `max` characters. */
export function plainText(text: string, max = 80): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const cut = oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
  return cut.replace(ACTIVE_CHARACTERS, (c) => `\\${c}`);
}

/** A cost in US dollars, never with a `$` the UI would read as math. */
export function usd(amount: number): string {
  return `USD ${amount.toFixed(4)}`;
}

/** An identifier shown as code (a backtick inside it cannot end the span). */
export function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

/** One list item whose fields are separated the same way everywhere. */
export function row(fields: readonly string[]): string {
  return `- ${fields.filter((f) => f !== '').join(' · ')}`;
}
