/**
 * A `custom` completion type's handler module must be a file inside the agent directory
 * at load: it is part of the definition, copied into the run's snapshot and loaded from
 * there (load/verdict-handler-files.ts). A handler that is missing, or outside the
 * agent directory, would otherwise fail the run at its first verdict (CUSTOM_HANDLER),
 * after the model was paid for.
 */
import { existsSync, statSync } from 'node:fs';
import { pointer, problem, type Problem } from '../problem.js';
import { handlerFile } from '../load/verdict-handler-files.js';
import type { DefinitionRule } from './rule.js';

export const verdictHandlerPresent: DefinitionRule = (ctx) => {
  const verdict = ctx.settings.verdict;
  if (verdict.type !== 'custom') return [];
  const handlerPath = verdict.config['handlerPath'];
  // A missing handlerPath is VERDICT_HANDLER_PATH_MISSING (normalise-verdict.ts).
  if (typeof handlerPath !== 'string' || handlerPath === '') return [];
  const at = {
    file: ctx.agentFile,
    pointer: `/runner/verdict/config${pointer('handlerPath')}`,
    rule: 'verdict-handler-present',
  };
  const abs = handlerFile(ctx.layout.agentDir, handlerPath);
  const problems: Problem[] = [];
  if (abs === undefined) {
    problems.push(
      problem({
        ...at,
        code: 'VERDICT_HANDLER_OUTSIDE',
        expected: 'a module path relative to the agent directory, inside it',
        message: `custom handler '${handlerPath}' is outside the agent directory ${ctx.layout.agentDir}`,
      }),
    );
  } else if (!existsSync(abs) || !statSync(abs).isFile()) {
    problems.push(
      problem({
        ...at,
        code: 'VERDICT_HANDLER_NOT_FOUND',
        expected: `a module at ${abs} whose default export returns { done, reason }`,
        message: `custom handler '${handlerPath}' not found`,
      }),
    );
  }
  return problems;
};
