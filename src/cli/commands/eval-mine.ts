/**
 * `issue-agent eval --mine REPO [--limit N] [--scan N] [--test-command CMD] [--out FILE]`:
 * SWE-bench JSONL tasks from a repository's history (src/dev/eval/mine). Progress goes
 * to stderr, one line per candidate commit; the tasks to --out or stdout. Exit 0 when
 * at least one task qualified, 1 when none did.
 */
import { writeFileSync } from 'node:fs';
import { mineHistory } from '../../dev/eval/mine/mine-history.js';
import { sweLine } from '../../dev/eval/swe-jsonl.js';
import type { ParsedFlags } from '../flags/parse-flags.js';
import { optionalNumber, optionalString } from '../flags/parse-flags.js';
import { resolveUserPath } from '../run-target.js';
import { printLine } from '../../host/terminal-text.js';

export async function mineCommand(flags: ParsedFlags): Promise<number> {
  const repo = resolveUserPath(optionalString(flags, 'mine')!);
  const limit = optionalNumber(flags, 'limit', { integer: true }) ?? 5;
  const scan = optionalNumber(flags, 'scan', { integer: true });
  const testCommand = optionalString(flags, 'test-command');
  const out = optionalString(flags, 'out');
  const say = (line: string): boolean => printLine(process.stderr, line);
  const tasks = await mineHistory({
    repo,
    limit,
    ...(scan === undefined ? {} : { scan }),
    ...(testCommand === undefined ? {} : { testCommand }),
    log: say,
  });
  const text = tasks.map((t) => `${sweLine(t)}\n`).join('');
  if (out !== undefined) writeFileSync(resolveUserPath(out), text);
  else process.stdout.write(text);
  say(
    tasks.length === 0
      ? 'no commit qualified as a task'
      : `${tasks.length} task(s)${out === undefined ? '' : ` written to ${out}`}: ${tasks.map((t) => t.instanceId).join(', ')}`,
  );
  return tasks.length === 0 ? 1 : 0;
}
