/**
 * The environment phase's activities, built from their ports so the worker binds the
 * real ones (the sandboxed command runner, process.env) and tests pass fakes. The workflow calls
 * `prepareEnvironment` once per run before the first model call; it is idempotent, so
 * a retry or a resumed run reuses what the first attempt installed.
 */
import type { EnvironmentReport, PrepareEnvironmentInput } from '../../contracts/environment.js';
import { prepareEnvironment } from './prepare-environment.js';
import type { CommandRunner } from '../process/command-runner.js';
import { createContainedSetupRunner } from './sandboxed-setup-runner.js';

export interface EnvironmentActivityDeps {
  /** Runs setup commands (default: in the sandbox with the network; capped and redacted output). */
  readonly runner?: CommandRunner;
  /** The worker's environment (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly log?: (line: string) => void;
  /** The activity's cancellation (Temporal's `Context.current().cancellationSignal`). */
  readonly signal?: () => AbortSignal | undefined;
  /** The activity's heartbeat (Temporal's `Context.current().heartbeat`): at each step and every 10 s. */
  readonly heartbeat?: () => ((detail: string) => void) | undefined;
}

const HEARTBEAT_EVERY_MS = 10_000;

export interface EnvironmentActivities {
  prepareEnvironment(input: PrepareEnvironmentInput): Promise<EnvironmentReport>;
}

export function createEnvironmentActivities(deps: EnvironmentActivityDeps = {}): EnvironmentActivities {
  const runner = deps.runner ?? createContainedSetupRunner();
  return {
    prepareEnvironment: async (input) => {
      const signal = deps.signal?.();
      const beat = deps.heartbeat?.();
      let current = 'environment';
      const timer = beat ? setInterval(() => beat(current), HEARTBEAT_EVERY_MS) : undefined;
      try {
        return await prepareEnvironment(
          {
            runner,
            ...(deps.env ? { env: deps.env } : {}),
            ...(deps.log ? { log: deps.log } : {}),
            ...(signal ? { signal } : {}),
            heartbeat: (detail) => {
              current = detail;
              beat?.(detail);
            },
          },
          input,
        );
      } finally {
        if (timer) clearInterval(timer);
      }
    },
  };
}
