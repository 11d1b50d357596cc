/**
 * A `git` for crash tests: a directory to put first on PATH whose `git` stops at the
 * first call whose arguments contain a given word, either before running it or after
 * the real git ran (before its caller hears back), and touches a file when it gets
 * there. It then sleeps and exits 137 without (further) effect, so killing its caller
 * looks like a machine going down at that git step.
 */
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

/** A directory with a `git` that stops at the first call whose arguments contain `match`. */
export async function pausingGit(match: string, when: 'before' | 'after'): Promise<{ dir: string; reached: string }> {
  const real = (await execa('sh', ['-c', 'command -v git'])).stdout.trim();
  const dir = await mkdtemp(join(tmpdir(), 'pausing-git-'));
  const reached = join(dir, 'reached');
  const script = [
    '#!/bin/sh',
    `case " $* " in`,
    `  *" ${match} "*)`,
    ...(when === 'after' ? [`    "${real}" "$@"`] : []),
    `    : > "${reached}"`,
    '    i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done',
    '    exit 137 ;;',
    'esac',
    `exec "${real}" "$@"`,
    '',
  ].join('\n');
  await writeFile(join(dir, 'git'), script);
  await chmod(join(dir, 'git'), 0o755);
  return { dir, reached };
}
