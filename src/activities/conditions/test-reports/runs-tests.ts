/**
 * Whether a command validator runs tests: it is judged against a baseline, or one of its
 * params is extracted with a test-failure extractor. Such commands run with report files
 * (report-files.ts) and have their failures named, in the validators and the preflight.
 */
import type { ValidatorDefinition } from '../../../contracts/definition.js';
import { TEST_EXTRACTORS, type ExtractorName } from '../extractors.js';

export function runsTests(definition: Extract<ValidatorDefinition, { type: 'command' }>): boolean {
  return (
    definition.baseline !== undefined ||
    Object.values(definition.extractParams).some((name) => TEST_EXTRACTORS.includes(name as ExtractorName))
  );
}
