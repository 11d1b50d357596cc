/**
 * The runner of an agent-written setup's commands (agent-setup.md). A configured or
 * detected setup runs on the host: the user wrote it, or it is what the repository
 * committed. A model wrote these, so they run in the agent's sandbox like its own bash
 * calls, with two differences the task needs: the worktree is writable (they install into
 * it) and the host's network is there (they fetch). Everything else stays as for the
 * agent: the user's git dir read-only (its config and hooks cannot be planted), the
 * worker's home and state hidden, no credential in the environment, the agent's private
 * HOME (where the later, offline test command finds what they cached).
 */
import { sandboxCommand } from '../tools/sandbox-launch.js';
import { createExecaSetupRunner, type SetupProcessRunner } from './setup-process.js';
import type { Redact } from '../edge/secret-redactor.js';

export function createSandboxedSetupRunner(options: { readonly redact?: Redact } = {}): SetupProcessRunner {
  return createExecaSetupRunner({
    ...options,
    launch: async (request) => {
      const command = await sandboxCommand({
        dir: request.cwd,
        command: request.command,
        readOnly: false,
        network: true,
      });
      return { file: command.file, args: command.args, env: command.env };
    },
  });
}
