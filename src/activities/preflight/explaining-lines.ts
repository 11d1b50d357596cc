/**
 * The few lines of a failed command's output that explain it, for an ENVIRONMENT_FAILED
 * message: lines that name an error, a missing command or module, else the last lines.
 * npm's banner lines (`> pkg@1.0.0 test`) and blank lines never explain anything. PURE.
 */
import { stripAnsi } from '../validate/strip-ansi.js';

const MAX_LINES = 6;
const MAX_WIDTH = 200;
const TELLING = /\b(error|not found|no such|missing|cannot|could not|unable|denied|ENOENT|No module named)\b/i;

export function explainingLines(output: string): string[] {
  const lines = stripAnsi(output)
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !/^> \S+@\S+ /.test(l.trim()) && !/^> /.test(l.trim()));
  const telling = lines.filter((l) => TELLING.test(l));
  const chosen = (telling.length > 0 ? telling : lines.slice(-MAX_LINES)).slice(0, MAX_LINES);
  return chosen.map((l) => (l.length > MAX_WIDTH ? `${l.slice(0, MAX_WIDTH - 1)}…` : l.trim()));
}
