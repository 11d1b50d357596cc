/**
 * An agent-written setup (docs/environments/agent-setup.md) is planned and run exactly as
 * a configured `commands.setup` is (same steps, stamps, environment, timeouts): only
 * what the report and a failure say differs, so nobody looks for the commands in a
 * `.agent/config.json` that does not have them. Its steps get ids of their own, so a
 * failure names the command rather than a config pointer, and the stamps of a configured
 * setup with the same commands are never taken for its.
 */
import type { EnvironmentPlan } from './detect-setup.js';

export function asAgentWritten(plan: EnvironmentPlan): EnvironmentPlan {
  const steps = plan.steps.map((step, i) => ({
    ...step,
    id: `agent-${step.id}`,
    reason: `agent-written setup[${i}]: ${step.command}`,
  }));
  return {
    ...plan,
    steps,
    detected: [
      `setup: ${steps.length} command(s) written by the agent, where detection found none that runs the tests`,
    ],
  };
}
