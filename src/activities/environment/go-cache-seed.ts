/**
 * The agent's GOCACHE: go must write its build cache, and a cache the agent could write
 * must not be one later runs trust (cache poisoning), so each worktree gets its own,
 * seeded once from the repository's warm shared cache by a copy (cp --reflink=auto:
 * a reflink where the filesystem has them). Measured here on a small module: the copy
 * takes well under a second, against ~30 s of a cold stdlib+test build. An overlayfs
 * inside the sandbox's mount namespace would avoid the copy but needs mount options
 * the user-namespace mode may not have; the copy works in every isolation mode.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Ecosystem, SetupStepStatus, type SetupStepReport } from '../../contracts/environment.js';
import { q } from '../../definition/ecosystems/ecosystem.js';
import type { CommandRunner } from '../process/command-runner.js';

export async function seedGoCache(options: {
  readonly shared: string;
  readonly target: string;
  readonly for: 'agent' | 'validators';
  readonly runner: CommandRunner;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}): Promise<SetupStepReport> {
  const { shared, target } = options;
  const started = Date.now();
  const command = `cp -a --reflink=auto ${q(shared)}/. ${q(target)}`;
  const base = {
    ecosystem: Ecosystem.Go,
    command,
    reason:
      options.for === 'agent'
        ? "go: this worktree's own GOCACHE, seeded from the warm shared one"
        : "go: the validators' own GOCACHE in this worktree (the agent cannot write it), seeded from the warm shared one",
  };
  if (existsSync(target)) {
    return { ...base, status: SetupStepStatus.Skipped, cacheHit: true, reused: [`GOCACHE ${target}`], durationMs: 0 };
  }
  const warm = (await readdir(shared).catch(() => [] as string[])).length > 0;
  const temp = `${target}.tmp-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  let note: string | undefined;
  if (warm) {
    const result = await options.runner.run({
      command: `cp -a --reflink=auto ${q(shared)}/. ${q(temp)}`,
      cwd: options.cwd,
      env: options.env,
      // Copied from, never written: only Go's own setup steps write the shared build cache.
      readOnlyDirs: [shared],
      timeoutMs: 10 * 60_000,
    });
    if (result.exitCode !== 0)
      note = `copy failed (${result.all.trim().slice(-300)}): the ${options.for} start with an empty GOCACHE`;
  }
  await mkdir(path.dirname(target), { recursive: true });
  await rename(temp, target);
  return {
    ...base,
    status: SetupStepStatus.Ran,
    cacheHit: warm && note === undefined,
    reused: warm && note === undefined ? [`GOCACHE copied from ${shared}`] : [],
    durationMs: Date.now() - started,
    ...(note === undefined ? {} : { note }),
  };
}
