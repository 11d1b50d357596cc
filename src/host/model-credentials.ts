/**
 * A worker in this process calls the model with the credentials of this process: when
 * there are none, a command says so before it creates anything (a workflow, a worktree,
 * a branch), instead of the run failing on MODEL_AUTH after its setup.
 */
import { AgentError } from '../contracts/errors.js';
import { FailureType } from '../contracts/failures.js';

/** Where an offline model server comes from: the installed command first, then a clone's demo session. */
export const OFFLINE_HINT =
  '`issue-agent model-server --session FILE` gives an offline one; in a clone, `npm run model-server -- --session demo/session.json`';

export function hasModelCredentials(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return Boolean(env['ANTHROPIC_API_KEY']?.trim() || env['ANTHROPIC_BASE_URL']?.trim());
}

/** Throws MODEL_AUTH naming the variables to set, when this process has no model credentials. */
export function requireModelCredentials(env: Readonly<Record<string, string | undefined>> = process.env): void {
  if (hasModelCredentials(env)) return;
  throw new AgentError(
    FailureType.ModelAuth,
    `no model credentials for the in-process worker: set ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL to a Messages-API-compatible server (${OFFLINE_HINT}); nothing was started`,
    { where: 'ANTHROPIC_API_KEY', expected: 'ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL set' },
  );
}
