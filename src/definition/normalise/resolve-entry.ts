/**
 * Chooses the entry step: `entryStepMapping[<verdict type>]` first (keyed by the type
 * as written, its seed name or its upstream name), then `entryStep`. Every mapped
 * step must exist, whichever one is chosen, so switching verdict types cannot break.
 */
import { UPSTREAM_COMPLETION_ALIASES, canonicalCompletionType } from '../../contracts/completion-types.js';
import type { EntryChoice } from '../load/load-context.js';
import { pointer, problem, warning, type Problem } from '../problem.js';
import type { RawRegistryFile } from '../load/raw-files.js';

export function resolveEntry(
  registry: RawRegistryFile,
  verdictTypeName: string,
  stepIds: ReadonlySet<string>,
  file: string,
): { entry: EntryChoice | undefined; problems: Problem[] } {
  const problems: Problem[] = [];
  const mapping = registry.entryStepMapping ?? {};
  for (const [type, stepId] of Object.entries(mapping)) {
    const at = pointer('entryStepMapping', type);
    if (canonicalCompletionType(type) === undefined) {
      problems.push(
        warning({
          code: 'ENTRY_MAPPING_KEY_UNKNOWN',
          file,
          pointer: at,
          rule: 'entry-mapping-keys',
          expected: 'a verdict type name',
          message: `entryStepMapping key '${type}' is not a verdict type`,
        }),
      );
    }
    if (!stepIds.has(stepId)) problems.push(unknownEntry(file, at, stepId));
  }
  const canonical = canonicalCompletionType(verdictTypeName);
  const names = [
    verdictTypeName,
    canonical,
    ...Object.entries(UPSTREAM_COMPLETION_ALIASES)
      .filter(([, c]) => c === canonical)
      .map(([u]) => u),
  ];
  const mappedType = names.find((n): n is string => n !== undefined && Object.hasOwn(mapping, n));
  if (mappedType !== undefined) {
    const stepId = mapping[mappedType] ?? '';
    return {
      entry: stepIds.has(stepId) ? { stepId, pointer: pointer('entryStepMapping', mappedType) } : undefined,
      problems,
    };
  }
  if (registry.entryStep === undefined) {
    problems.push(
      problem({
        code: 'ENTRY_STEP_MISSING',
        file,
        pointer: '/entryStep',
        rule: 'entry-step-declared',
        expected: `entryStep, or entryStepMapping with a key for '${verdictTypeName}'`,
        message: 'no entry step for this verdict type',
      }),
    );
    return { entry: undefined, problems };
  }
  if (!stepIds.has(registry.entryStep)) {
    problems.push(unknownEntry(file, '/entryStep', registry.entryStep));
    return { entry: undefined, problems };
  }
  return { entry: { stepId: registry.entryStep, pointer: '/entryStep' }, problems };
}

function unknownEntry(file: string, at: string, stepId: string): Problem {
  return problem({
    code: 'UNKNOWN_ENTRY_STEP',
    file,
    pointer: at,
    rule: 'entry-step-exists',
    expected: 'a step id of this registry',
    message: `entry step '${stepId}' does not exist`,
  });
}
