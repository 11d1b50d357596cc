/**
 * Validation in one pass. A file that failed its JSON Schema is still handed to the
 * normalisers and rules ("lenient"), so one run reports shape, reference, graph and
 * prompt problems together. The rules were written for schema-checked input: a rule
 * (or the normalisation) that throws on a malformed part is skipped — the shape error
 * already names that part — and a rule's problem at or under the pointer of a shape
 * error in the same file is an echo of it and dropped.
 */
import type { Problem } from '../problem.js';
import type { LoadContext } from './load-context.js';
import type { DefinitionRule } from '../rules/rule.js';

/** The raw value typed as the file shape when its core key is an object (else undefined). */
export function lenient<T>(value: unknown, coreKey: string): T | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const core = (value as Record<string, unknown>)[coreKey];
  return typeof core === 'object' && core !== null && !Array.isArray(core) ? (value as T) : undefined;
}

export interface RuleRun {
  readonly ctx?: LoadContext;
  readonly problems: Problem[];
}

export async function runRulesLeniently(
  build: () => Promise<{ ctx: LoadContext; problems: Problem[] }>,
  rules: readonly DefinitionRule[],
): Promise<RuleRun> {
  let built: { ctx: LoadContext; problems: Problem[] };
  try {
    built = await build();
  } catch {
    return { problems: [] };
  }
  const problems = [...built.problems];
  for (const rule of rules) {
    try {
      problems.push(...(await rule(built.ctx)));
    } catch {
      // Only reachable with a file that failed its schema: that error is reported.
    }
  }
  return { ctx: built.ctx, problems };
}

/** Drops rule problems at or under a shape error's pointer in the same file. */
export function withoutEchoes(problems: readonly Problem[], shape: readonly Problem[]): Problem[] {
  const covered = shape.filter((p) => p.severity === 'error');
  return problems.filter(
    (p) =>
      !covered.some(
        (s) =>
          s.file === p.file &&
          (p.pointer === s.pointer || p.pointer.startsWith(`${s.pointer}/`) || s.pointer.startsWith(`${p.pointer}/`)),
      ),
  );
}
