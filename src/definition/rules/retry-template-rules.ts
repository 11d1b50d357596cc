/**
 * Retry prompt templates (`<c1>/<c2>/<c3>/f_*.md` of each completion step) must parse
 * as Handlebars and read only variables they will have: the fixed ones every retry
 * prompt gets, plus — for `f_<edition>_<adaptation>.md` of a failure pattern — that
 * pattern's `params` and the params its validators extract; any other template (the
 * `f_failed.md` fallback) may read any pattern's or validator's params. An unknown
 * variable would render as nothing: it is an error, named with its file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stripFrontMatter } from '../c3l/front-matter.js';
import { problem, type Problem } from '../problem.js';
import { RETRY_FIXED_VARIABLES, templateVariables } from '../retry-prompt/retry-template.js';
import type { LoadContext } from '../load/load-context.js';
import type { DefinitionRule } from './rule.js';

function validatorParams(ctx: LoadContext, pattern?: string): string[] {
  const out: string[] = [];
  for (const [id, v] of Object.entries(ctx.validators.defined)) {
    if (v.type !== 'command') continue;
    const raw = ctx.registry.validators?.[id];
    if (pattern === undefined || (raw?.failurePattern ?? v.failurePattern) === pattern) {
      out.push(...Object.keys(v.extractParams));
    }
  }
  return out;
}

function allowedFor(ctx: LoadContext, fileName: string): Set<string> {
  const allowed = new Set(RETRY_FIXED_VARIABLES);
  const specific = Object.entries(ctx.failurePatterns).filter(
    ([, p]) => fileName === `f_${p.edition}${p.adaptation ? `_${p.adaptation}` : ''}.md`,
  );
  const patterns = specific.length > 0 ? specific : Object.entries(ctx.failurePatterns);
  for (const [id, p] of patterns) {
    for (const name of p.params) allowed.add(name);
    for (const name of validatorParams(ctx, specific.length > 0 ? id : undefined)) allowed.add(name);
  }
  if (specific.length === 0) for (const name of validatorParams(ctx)) allowed.add(name);
  return allowed;
}

export const retryTemplatesValid: DefinitionRule = async (ctx) => {
  const problems: Problem[] = [];
  const dirs = new Set(ctx.completionSteps.map((c) => `${ctx.c1}/${c.definition.c2}/${c.definition.c3}/`));
  const promptsRel = path.relative(ctx.layout.agentDir, ctx.layout.promptsDir).split(path.sep).join('/');
  for (const rel of ctx.promptFiles) {
    const dir = [...dirs].find((d) => rel.startsWith(d));
    const name = dir === undefined ? '' : rel.slice(dir.length);
    if (dir === undefined || name.includes('/') || !name.endsWith('.md')) continue;
    const text = stripFrontMatter(await readFile(path.join(ctx.layout.promptsDir, rel), 'utf8'));
    const file = promptsRel === '' ? rel : `${promptsRel}/${rel}`;
    const checked = templateVariables(text);
    if (!checked.ok) {
      problems.push(
        problem({
          code: 'RETRY_TEMPLATE_INVALID',
          file,
          pointer: '',
          rule: 'retry-template-parses',
          expected: 'a Handlebars template',
          message: `retry prompt does not parse: ${checked.error}`,
        }),
      );
      continue;
    }
    const allowed = allowedFor(ctx, name);
    for (const variable of checked.variables.filter((v) => !allowed.has(v))) {
      problems.push(
        problem({
          code: 'RETRY_TEMPLATE_UNKNOWN_VARIABLE',
          file,
          pointer: '',
          rule: 'retry-template-variables',
          expected: `variables among ${[...allowed].join(', ')}`,
          message: `retry prompt reads {{${variable}}}, which no failure of this pattern provides`,
        }),
      );
    }
  }
  return problems;
};
