/**
 * ajv, loaded on first use rather than when a module that validates is imported.
 *
 * Every schema check in the project compiles on first use already; this moves the
 * library's own load (~0.1 s of CPU for ajv and its draft-2020 build) off the worker's
 * start as well, so a step resumed on a fresh worker reaches its model request sooner.
 * ajv is CommonJS, so a synchronous require keeps the callers synchronous.
 */
import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
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
