/**
 * Every step's output schema resolves, and its `intentSchemaRef` points (within the
 * resolved schema) at an enum equal, as a set, to `allowedIntents` (docs/concepts.md#gate;
 * upstream SR-VALID-002/003). Checked at load, so a broken
 * pointer stops the definition before any run starts.
 */
import { AgentError } from '../../contracts/errors.js';
import type { JsonObject } from '../../contracts/json.js';
import type { DraftStep, LoadContext } from '../load/load-context.js';
import { problem, type Problem } from '../problem.js';
import { resolveStepSchema } from '../schema/resolve-step-schema.js';
import { getAtPointer, parsePointer } from '../schema/json-pointer.js';
import type { DefinitionRule } from './rule.js';

export const outputSchemasResolve: DefinitionRule = async (ctx) => {
  const results = await Promise.all(ctx.steps.map((step) => checkStep(ctx, step)));
  return results.flat();
};

async function checkStep(ctx: LoadContext, step: DraftStep): Promise<Problem[]> {
  const ref = step.definition.outputSchemaRef;
  let full: JsonObject;
  try {
    ({ full } = await resolveStepSchema(
      {
        schemasDir: ctx.layout.schemasDir,
        stepId: step.key,
        file: ref.file,
        schema: ref.schema,
        ...(ref.inline === undefined ? {} : { inline: ref.inline }),
      },
      { files: ctx.schemaFiles },
    ));
  } catch (error) {
    if (!AgentError.isInstance(error)) throw error;
    return [
      problem({
        code: 'SCHEMA_UNRESOLVED',
        file: ctx.registryFile,
        pointer: `${step.pointer}/outputSchemaRef`,
        rule: 'output-schema-resolves',
        expected: error.expected ?? 'a resolvable schema',
        message: `${error.message} (at ${error.where ?? ref.file})`,
      }),
    ];
  }
  return step.definition.gated === false ? [] : checkIntentEnum(ctx, step, full);
}

function checkIntentEnum(ctx: LoadContext, step: DraftStep, full: JsonObject): Problem[] {
  const gate = step.definition.structuredGate;
  const at = `${step.pointer}/structuredGate/intentSchemaRef`;
  const fail = (code: string, expected: string, message: string): Problem[] => [
    problem({ code, file: ctx.registryFile, pointer: at, rule: 'intent-schema-ref', expected, message }),
  ];
  if (!gate.intentSchemaRef.startsWith('#/')) {
    return fail(
      'INTENT_SCHEMA_REF_FORMAT',
      "an internal pointer starting with '#/'",
      `intentSchemaRef '${gate.intentSchemaRef}' of step '${step.key}' is not an internal pointer`,
    );
  }
  const found = getAtPointer(full, parsePointer(gate.intentSchemaRef));
  if (!found.found) {
    return fail(
      'INTENT_SCHEMA_REF_UNRESOLVED',
      'a pointer into the resolved step schema',
      `intentSchemaRef '${gate.intentSchemaRef}' of step '${step.key}' does not exist in the resolved schema (no '${found.missing}')`,
    );
  }
  const target = found.value;
  const values =
    typeof target === 'object' && target !== null && !Array.isArray(target) && Array.isArray(target.enum)
      ? target.enum
      : undefined;
  if (values === undefined) {
    return fail(
      'INTENT_ENUM_MISSING',
      'a schema with an enum of intents',
      `intentSchemaRef '${gate.intentSchemaRef}' of step '${step.key}' does not point at an enum`,
    );
  }
  const allowed = new Set<string>(gate.allowedIntents);
  const enumSet = new Set(values.map((v) => String(v)));
  const same = allowed.size === enumSet.size && [...allowed].every((i) => enumSet.has(i));
  if (same) return [];
  return fail(
    'INTENT_ENUM_MISMATCH',
    `enum equal to allowedIntents [${[...allowed].join(', ')}]`,
    `schema enum [${[...enumSet].join(', ')}] of step '${step.key}' differs from allowedIntents`,
  );
}
