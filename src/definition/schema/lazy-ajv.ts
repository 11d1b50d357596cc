/**
 * ajv, loaded on first use rather than when a module that validates is imported.
 *
 * Every schema check in the project compiles on first use already; this moves the
 * library's own load (~0.1 s of CPU for ajv and its draft-2020 build) off the worker's
 * start as well, so a step resumed on a fresh worker reaches its model request sooner.
 * ajv is CommonJS, so a synchronous require keeps the callers synchronous.
 *
 * Two kinds of instance: `strictSchema` for the project's own schemas (agent.json,
 * steps_registry.json, workflow.json, .agent/config.json), where a keyword ajv does not
 * know is our mistake; `newAjv`/`newAjv2020` with lenient options for the schemas users
 * write (activities/model/turn-outcome.ts).
 */
import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { ValidateFunction } from 'ajv';
import type * as Ajv2020Module from 'ajv/dist/2020.js';

type AjvClass = AjvModule.Ajv;
type Ajv2020Class = Ajv2020Module.Ajv2020;

const require = createRequire(import.meta.url);

export type AjvOptions = ConstructorParameters<typeof AjvModule.Ajv>[0];

/** A draft-07 validator instance (ajv's default draft). */
export function newAjv(options: AjvOptions): AjvClass {
  const { Ajv } = require('ajv') as typeof AjvModule;
  return new Ajv(options);
}

/** A draft 2020-12 validator instance. */
export function newAjv2020(options: AjvOptions): Ajv2020Class {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof Ajv2020Module;
  return new Ajv2020(options);
}

/** Options of every project schema: all errors at once, unknown keywords rejected. */
const STRICT = { allErrors: true, strict: true, allowUnionTypes: true } as const;

/**
 * One of the project's own schemas, compiled strictly on its first use, then kept:
 * compiling at import cost every process that loads the module (the worker before it
 * polls, every CLI command) ~150 ms.
 */
export function strictSchema<T>(schema: object): () => ValidateFunction<T> {
  let validate: ValidateFunction<T> | undefined;
  return () => (validate ??= newAjv(STRICT).compile<T>(schema));
}
