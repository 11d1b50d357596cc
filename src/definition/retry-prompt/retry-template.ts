/**
 * Retry prompt templates, rendered by Handlebars (the language upstream's retry
 * prompts are written in): `{{x}}`, `{{a.b}}`, `{{{x}}}`, `{{#if}}…{{else}}…{{/if}}`,
 * `{{#unless}}`, `{{#each}}` with `{{this}}`, `{{@index}}`, `{{@first}}`, `{{@last}}`.
 * Prompts are plain text: nothing is HTML-escaped. `compat` lookup lets a name inside
 * `{{#each}}` fall back to the template's variables, as upstream's mini language did;
 * an array printed as a value is joined with ", " (upstream's rule). Each template
 * text is compiled once and cached. A template Handlebars cannot parse renders as its
 * own text (validation reports it before any run: ../rules/retry-template-rules.ts).
 */
import { createRequire } from 'node:module';
import type HandlebarsModule from 'handlebars';

const require = createRequire(import.meta.url);

/** Variables every retry template has (retry-params.ts), besides its pattern's params. */
export const RETRY_FIXED_VARIABLES: readonly string[] = [
  'validator',
  'summary',
  'error',
  'exitCode',
  'command',
  'pattern',
  'failures',
  'details',
];

let instance: typeof HandlebarsModule | undefined;
/** Handlebars loads with the first template (~40 ms): a worker that never renders one never pays it. */
function engine(): typeof HandlebarsModule {
  instance ??= (require('handlebars') as typeof HandlebarsModule).create();
  return instance;
}
const compiled = new Map<string, HandlebarsTemplateDelegate>();
const OPTIONS = { noEscape: true, compat: true, strict: false } as const;

/** An array that prints as "a, b" but is still an array to #each / #if. */
class JoinedArray extends Array<unknown> {
  override toString(): string {
    return this.join(', ');
  }
}

function prepare(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out = new JoinedArray();
    for (const item of value) out.push(prepare(item));
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prepare(v)]));
  }
  return value;
}

function compile(template: string): HandlebarsTemplateDelegate | undefined {
  const cached = compiled.get(template);
  if (cached !== undefined) return cached;
  try {
    engine().precompile(template, OPTIONS); // parse errors surface here, not at first render
    const fn = engine().compile(template, OPTIONS);
    compiled.set(template, fn);
    return fn;
  } catch {
    return undefined;
  }
}

export function renderRetryTemplate(template: string, params: Readonly<Record<string, unknown>>): string {
  const fn = compile(template);
  if (fn === undefined) return template;
  try {
    return fn(prepare(params));
  } catch {
    return template;
  }
}

export type TemplateCheck =
  { readonly ok: true; readonly variables: readonly string[] } | { readonly ok: false; readonly error: string };

const BUILTIN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup', 'log']);

/**
 * The template's variables: the names it reads from the top-level context (outside
 * `#each`/`#with` blocks, whose inner names may be item properties; `@root.x` and
 * `../x` count anywhere). Parse errors are reported.
 */
export function templateVariables(template: string): TemplateCheck {
  let ast: hbs.AST.Program;
  try {
    ast = engine().parse(template);
    engine().precompile(template, OPTIONS);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error) };
  }
  const found = new Set<string>();
  const visitPath = (path: hbs.AST.PathExpression, scoped: boolean): void => {
    if (path.data) {
      if (path.parts[0] === 'root' && path.parts[1] !== undefined) found.add(path.parts[1]);
      return;
    }
    if (path.depth > 0 && path.parts[0] !== undefined) found.add(path.parts[0]);
    else if (!scoped && !path.original.startsWith('this') && path.parts[0] !== undefined) found.add(path.parts[0]);
  };
  const visitExpr = (expr: hbs.AST.Expression, scoped: boolean): void => {
    if (expr.type === 'PathExpression') visitPath(expr as hbs.AST.PathExpression, scoped);
    else if (expr.type === 'SubExpression') {
      for (const p of (expr as hbs.AST.SubExpression).params) visitExpr(p, scoped);
    }
  };
  const visit = (program: hbs.AST.Program | undefined, scoped: boolean): void => {
    for (const node of program?.body ?? []) {
      if (node.type === 'MustacheStatement') {
        const m = node as hbs.AST.MustacheStatement;
        const helper = m.path.type === 'PathExpression' && m.params.length > 0;
        if (!helper) visitExpr(m.path, scoped);
        for (const p of m.params) visitExpr(p, scoped);
      } else if (node.type === 'BlockStatement') {
        const b = node as hbs.AST.BlockStatement;
        const name = (b.path as hbs.AST.PathExpression).original;
        if (!BUILTIN_HELPERS.has(name)) visitExpr(b.path, scoped);
        for (const p of b.params) visitExpr(p, scoped);
        const opensScope = name === 'each' || name === 'with';
        visit(b.program, scoped || opensScope);
        visit(b.inverse, scoped);
      }
    }
  };
  visit(ast, false);
  return { ok: true, variables: [...found] };
}
