/**
 * Configured commands build in a cargo target dir of their own (tools/validator-view.ts),
 * so the preflight's build of the base no longer lands in the worktree's `target/` and the
 * agent's first `cargo test` compiled everything again (itoa: ~100 s a step). After the
 * preflight the agent's `target/` is seeded from the validators' copy: only the base's code
 * is in it, built by the harness, so nothing the agent wrote crosses into what the
 * validators trust (the other direction is the one that matters). The copy runs in the
 * validators' sandbox, where `CARGO_TARGET_DIR` names their dir; a reflink where the
 * filesystem has them (a real copy of 250 MB takes well under a second here). Only when
 * the worktree has no `target` yet and git ignores it (a copy git shows would make the
 * tree dirty).
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { CommandRunner } from '../process/command-runner.js';
import { git } from '../workspace/git/git.js';

const SEED = [
  'set -e',
  '[ -d "$CARGO_TARGET_DIR" ] && [ -n "$(ls -A "$CARGO_TARGET_DIR")" ] || exit 0',
  'rm -rf target.seeding',
  'cp -a --reflink=auto "$CARGO_TARGET_DIR"/. target.seeding',
  'mv -T target.seeding target',
].join('\n');

/** Seeds the worktree's cargo `target/` from the preflight's build; true when it did. Best effort. */
export async function seedAgentCargoTarget(commands: CommandRunner, worktreePath: string): Promise<boolean> {
  if (!exists(path.join(worktreePath, 'Cargo.toml')) || exists(path.join(worktreePath, 'target'))) return false;
  const ignored = await git(worktreePath, ['check-ignore', '-q', '--', 'target/']);
  if (ignored.exitCode !== 0) return false;
  const outcome = await commands.run({ command: SEED, cwd: worktreePath, timeoutMs: 5 * 60_000 });
  return outcome.exitCode === 0 && exists(path.join(worktreePath, 'target'));
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
