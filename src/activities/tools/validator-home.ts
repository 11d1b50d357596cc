/**
 * The validators' HOME in a worktree (validator-view.ts): tools read user config there
 * (`~/.npmrc`'s `script-shell`, a `~/.m2/settings.xml` profile that skips the tests, a
 * `.pth` in Python's user site), so the agent's HOME, which its steps write, is not it.
 * It is a copy of the agent's HOME made at the worktree's first configured command, and
 * again at the first one after an agent-written setup command: the preflight, which runs
 * after the environment phase and before any of the agent's steps. So what an
 * agent-written setup cached in HOME for the offline test command (agent-setup.md: its
 * `~/.m2`, `~/.cargo`) is there, and nothing a step wrote later.
 * Copied whole into a temp dir and renamed, so a copy cut short is made again.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Left in the agent's HOME by the harness itself, not by setup: never copied. */
const HARNESS_ENTRIES = /^(issue-agent-baseline-|\.issue-agent-reports$)/;

export async function validatorHome(validatorRoot: string, agentHome: string): Promise<string> {
  const home = path.join(validatorRoot, 'home');
  if (existsSync(home)) return home;
  const temp = `${home}.tmp-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  await mkdir(path.dirname(home), { recursive: true });
  await mkdir(temp, { mode: 0o700 });
  await cp(agentHome, temp, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => source === agentHome || !HARNESS_ENTRIES.test(path.basename(source)),
  }).catch(() => undefined);
  await rename(temp, home).catch(async (error: NodeJS.ErrnoException) => {
    // Another command of the same worktree made it first: theirs is as good.
    if (!existsSync(home)) throw error;
    await rm(temp, { recursive: true, force: true });
  });
  return home;
}

/**
 * An agent-written setup command is about to write the agent's HOME (what the offline tests
 * need, with the network): the copy is made again at the next configured command, its
 * preflight, so it holds what the setup cached. A detected command's preflight, which ran
 * before the agent-written setup, made one without it.
 */
export async function forgetValidatorHome(validatorRoot: string): Promise<void> {
  await rm(path.join(validatorRoot, 'home'), { recursive: true, force: true });
}
