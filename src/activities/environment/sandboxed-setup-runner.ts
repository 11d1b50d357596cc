/**
 * The runners of setup commands, both in the agent's sandbox with the host's network.
 *
 * - The contained runner runs a configured or detected setup (`npm ci`, `pip install -e .`,
 *   `commands.setup`). That is the repository's code at the base commit, but the base may
 *   hold what an agent wrote: a run delivered with `--deliver merge` or `squash` puts its
 *   commit on the user's branch with no human in between, and the next run's setup would
 *   run its `.yarnrc.yml` `yarnPath`, its plugins or its `setup.py` as the worker. So setup
 *   sees the worker's environment minus every credential (setup-env), as it always did, and
 *   the sandbox's walls: the user's git dir read-only (no hook or config planted), the
 *   worker's home, state and `/tmp` hidden, no other process of the host to read (a pid
 *   namespace: not the worker's `/proc/<pid>/environ`). Writable: the worktree and the
 *   directories the request names (the shared package caches, the worktree's venv and
 *   setup HOME), which the environment phase lists.
 * - The agent-written setup's runner (agent-setup.md) runs commands a model wrote: the
 *   agent's own environment and private HOME (where the later, offline test command finds
 *   what they cached), nothing of the shared caches writable.
 */
import { sandboxCommand } from '../tools/sandbox-launch.js';
import { createExecaSetupRunner, type SetupProcessRunner } from './setup-process.js';
import type { Redact } from '../edge/secret-redactor.js';

/** Both runners: bash in the sandbox with the network; `contained` says whose environment. */
function sandboxedRunner(contained: boolean, redact: Redact | undefined): SetupProcessRunner {
  return createExecaSetupRunner({
    ...(redact ? { redact } : {}),
    launch: async (request) => {
      const command = await sandboxCommand({
        dir: request.cwd,
        command: request.command,
        readOnly: false,
        network: true,
        ...(contained
          ? {
              setup: { env: request.env, writable: request.writableDirs ?? [], readOnly: request.readOnlyDirs ?? [] },
            }
          : {}),
      });
      return { file: command.file, args: command.args, env: command.env };
    },
  });
}

export function createContainedSetupRunner(options: { readonly redact?: Redact } = {}): SetupProcessRunner {
  return sandboxedRunner(true, options.redact);
}

export function createSandboxedSetupRunner(options: { readonly redact?: Redact } = {}): SetupProcessRunner {
  return sandboxedRunner(false, options.redact);
}
