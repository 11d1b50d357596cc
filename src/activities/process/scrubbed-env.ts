/**
 * The environment configured commands inherit. Validators run commands the agent's
 * code controls (tests it wrote can print process.env), so credentials of the worker
 * (model and GitHub keys) must not leak into them.
 */

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

/**
 * Variables that change how a repository's own tooling behaves when set by the
 * worker's host process: under node's test runner, NODE_TEST_CONTEXT makes a nested
 * `node --test` report to the parent and exit 0, so failing tests would pass.
 */
const HOST_ONLY = new Set(['NODE_TEST_CONTEXT', 'NODE_CHANNEL_FD', 'NODE_UNIQUE_ID']);

export function scrubbedEnv(
  parent: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || SECRET_NAME.test(name) || HOST_ONLY.has(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}
