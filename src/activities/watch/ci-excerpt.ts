/**
 * A bounded excerpt of a failed CI job's log for the model: the lines that say what failed,
 * not the megabytes of set-up before them. GitHub Actions logs prefix every line with a
 * timestamp and colour codes; both go. Kept: the first lines that look like a failure
 * (with a little context) and the log's tail, within MAX_EXCERPT_CHARS. PURE.
 */

export const MAX_EXCERPT_CHARS = 6_000;
const TAIL_LINES = 40;
const CONTEXT_LINES = 3;
const FAILURE = /\b(error|errors|fail|failed|failure|failing|panic|exception|assert\w*|traceback)\b|✗|✕|×/i;

const TIMESTAMP = /^\uFEFF?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z ?/;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export function ciExcerpt(log: string, maxChars: number = MAX_EXCERPT_CHARS): string {
  const lines = log
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(TIMESTAMP, '').replace(ANSI, '').trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const whole = lines.join('\n');
  if (whole.length <= maxChars) return whole;

  const tailStart = Math.max(0, lines.length - TAIL_LINES);
  const keep = new Set<number>();
  for (let i = tailStart; i < lines.length; i++) keep.add(i);
  const firstFailure = lines.findIndex((l, i) => i < tailStart && FAILURE.test(l));
  if (firstFailure >= 0)
    for (let i = Math.max(0, firstFailure - CONTEXT_LINES); i <= firstFailure + CONTEXT_LINES * 3; i++) keep.add(i);

  const out: string[] = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (i >= lines.length) continue;
    if (i !== last + 1) out.push(`… (${i - last - 1} lines left out)`);
    out.push(lines[i]!);
    last = i;
  }
  const text = out.join('\n');
  // Still too long (very long lines): the end wins, it is where runners print their summary.
  return text.length <= maxChars ? text : `… (cut)\n${text.slice(text.length - maxChars)}`;
}
