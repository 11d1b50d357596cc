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
import { CommandSandbox, createSpawnerCommandRunner } from '../process/spawner-command-runner.js';
import type { CommandRunner } from '../process/command-runner.js';
import type { Redact } from '../edge/secret-redactor.js';

/** What setup prints is kept short: the failure's last lines are what a user reads. */
const SETUP_OUTPUT_CAP_CHARS = 64 * 1024;
/** npm and pip get a little longer than a test to write their caches on SIGTERM. */
const SETUP_KILL_GRACE_MS = 3000;

function setupRunner(sandbox: CommandSandbox, redact: Redact | undefined): CommandRunner {
  return createSpawnerCommandRunner({
    sandbox,
    outputCapChars: SETUP_OUTPUT_CAP_CHARS,
    killGraceMs: SETUP_KILL_GRACE_MS,
    // Nothing a setup command started outlives it.
    killGroupAfterExit: true,
    ...(redact ? { redact } : {}),
  });
}

export function createContainedSetupRunner(options: { readonly redact?: Redact } = {}): CommandRunner {
  return setupRunner(CommandSandbox.Setup, options.redact);
}

export function createSandboxedSetupRunner(options: { readonly redact?: Redact } = {}): CommandRunner {
  return setupRunner(CommandSandbox.AgentNetworked, options.redact);
}
