/**
 * The package manager a Node plan needs, in the exact version package.json asks for.
 * corepack would do this, but its signature check fails against registry mirrors, so
 * the version is installed from the npm registry with npm itself into a shared tools
 * dir (`<cache>/tools/pnpm-9.15.0`, no install scripts), once per version, atomically
 * (a temp prefix renamed into place, so two runs installing it at once both succeed).
 * One already on PATH in the asked version is used as is.
 */
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { SetupStepStatus, type SetupStepReport } from '../../contracts/environment.js';
import type { CacheLayout, WorktreeLayout } from './cache-layout.js';
import { setupScope } from './setup-scope.js';
import { EcosystemId, q, type ToolRequest } from '../../definition/ecosystems/ecosystem.js';
import type { PlannedStep } from './planned-step.js';
import { setupFailure } from './setup-failure.js';
import type { CommandRunner } from '../process/command-runner.js';

export interface ToolOutcome {
  readonly report: SetupStepReport;
  /** The bin dir to put first on PATH; absent when the one on PATH is used. */
  readonly binDir?: string;
  /** The install prefix, shown read-only in the sandbox. */
  readonly prefix?: string;
}

export function onPath(name: string, pathVar: string): string | undefined {
  for (const dir of pathVar.split(':')) {
    const file = path.join(dir, name);
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

export async function ensureTool(options: {
  readonly request: ToolRequest;
  readonly caches: CacheLayout;
  readonly worktree: WorktreeLayout;
  readonly runner: CommandRunner;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly timeoutMs: number;
}): Promise<ToolOutcome> {
  const { request, caches, runner, env } = options;
  const started = Date.now();
  const ecosystem = request.name;
  const found = onPath(request.name, env['PATH'] ?? '');
  if (found !== undefined) {
    const probe = await runner.run({ command: `${q(found)} --version`, cwd: options.cwd, env, timeoutMs: 30_000 });
    if (probe.exitCode === 0 && (!request.pinned || probe.all.trim() === request.version)) {
      const version = probe.all.trim();
      return {
        report: {
          ecosystem,
          command: `${found} --version`,
          reason: `${request.name} ${version} on PATH (${found})`,
          status: SetupStepStatus.Skipped,
          cacheHit: true,
          reused: [`${request.name} ${version} on PATH`],
          durationMs: Date.now() - started,
        },
      };
    }
  }
  const prefix = path.join(caches.tools, `${request.name}-${request.version}`);
  const binDir = path.join(prefix, 'node_modules', '.bin');
  const why = `${request.name} ${request.version}${request.pinned ? ' (package.json packageManager)' : ' (default)'} is not on PATH`;
  if (existsSync(path.join(binDir, request.name))) {
    return {
      binDir,
      prefix,
      report: {
        ecosystem,
        command: `npm install --prefix ${prefix} ${request.spec}`,
        reason: `${why}: using the one fetched earlier`,
        status: SetupStepStatus.Skipped,
        cacheHit: true,
        reused: [`${request.spec} from ${prefix}`],
        durationMs: Date.now() - started,
      },
    };
  }
  const temp = `${prefix}.tmp-${process.pid}-${Date.now()}`;
  const scripts = request.needsScripts ? '' : ' --ignore-scripts';
  // No user config: an earlier step could have left a `.npmrc` in the setup HOME (a registry of its own).
  const command = `npm install --userconfig /dev/null --prefix ${q(temp)} --no-audit --no-fund --no-package-lock${scripts} ${q(request.spec)}`;
  const step: PlannedStep = {
    id: `tool-${request.name}`,
    ecosystem,
    command,
    reason: why,
    inputs: [],
    caches: [],
    owners: [EcosystemId.Node],
  };
  // A Node command's scope (npm's caches, the worktree; the tools dir read-only) plus its
  // own temp dir under the tools dir, renamed into place here, outside the sandbox.
  const scope = setupScope({ owners: [EcosystemId.Node], caches, worktree: options.worktree });
  const writableDirs = [temp, ...scope.writableDirs];
  const call = { command, cwd: options.cwd, env, timeoutMs: options.timeoutMs };
  const result = await runner.run({ ...call, writableDirs, readOnlyDirs: scope.readOnlyDirs });
  if (result.exitCode !== 0) {
    await rm(temp, { recursive: true, force: true });
    throw setupFailure({ step, result, timeoutMs: options.timeoutMs, worktreePath: options.cwd });
  }
  try {
    await rename(temp, prefix);
  } catch {
    // Another run installed the same version meanwhile: theirs is as good.
    await rm(temp, { recursive: true, force: true });
  }
  return {
    binDir,
    prefix,
    report: {
      ecosystem,
      command: command.split(q(temp)).join(q(prefix)),
      reason: `${why}: fetched from the npm registry into ${prefix}`,
      status: SetupStepStatus.Ran,
      cacheHit: false,
      reused: [],
      durationMs: Date.now() - started,
    },
  };
}
