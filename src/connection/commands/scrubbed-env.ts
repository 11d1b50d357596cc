/**
 * The environment configured commands inherit. Validators run commands the agent's
 * code controls (tests it wrote can print process.env), so credentials of the worker
 * (model and GitHub keys) must not leak into them.
 */

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

export function scrubbedEnv(
  parent: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || SECRET_NAME.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}
