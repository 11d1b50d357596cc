/**
 * The `custom` completion type: a handler module of the agent, loaded by an activity
 * (the workflow cannot import user code). The module's default export receives the
 * iteration, the step output and the verdict config, and returns `{ done, reason }`.
 */
import { pathToFileURL } from 'node:url';
import type { CustomVerdictInput } from '../../contracts/activities.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { handlerFile } from '../../definition/load/verdict-handler-files.js';

export async function evaluateCustomVerdict(input: CustomVerdictInput): Promise<{ done: boolean; reason: string }> {
  // The loader checked the same rule; the activity checks it again on the path it is given.
  const path = handlerFile(input.agentDir, input.handlerPath);
  if (path === undefined) {
    throw new AgentError(
      FailureType.CustomHandler,
      `custom handler ${input.handlerPath} is outside the agent directory`,
      { where: 'runner.verdict.config.handlerPath' },
    );
  }
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (err) {
    throw new AgentError(
      FailureType.CustomHandler,
      `cannot load custom handler ${path}: ${err instanceof Error ? err.message : String(err)}`,
      {
        where: 'runner.verdict.config.handlerPath',
        expected: 'a module whose default export is a function',
      },
    );
  }
  if (typeof mod.default !== 'function') {
    throw new AgentError(FailureType.CustomHandler, `custom handler ${path} has no default export function`, {
      where: 'runner.verdict.config.handlerPath',
    });
  }
  const result: unknown = await (mod.default as (arg: unknown) => unknown)({
    iteration: input.iteration,
    output: input.output,
    config: input.config,
  });
  if (typeof result !== 'object' || result === null || typeof (result as { done?: unknown }).done !== 'boolean') {
    throw new AgentError(FailureType.CustomHandler, `custom handler ${path} returned ${JSON.stringify(result)}`, {
      expected: '{ done: boolean, reason: string }',
    });
  }
  const { done, reason } = result as { done: boolean; reason?: unknown };
  return {
    done,
    reason: typeof reason === 'string' ? reason : done ? 'custom handler: done' : 'custom handler: not done',
  };
}
