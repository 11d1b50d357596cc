/**
 * A cross-reference rule: a small function over the load context that returns the
 * problems it finds (never throws for a bad definition). The loader runs them all and
 * reports everything together.
 */
import type { LoadContext } from '../load/load-context.js';
import type { Problem } from '../problem.js';

export type DefinitionRule = (ctx: LoadContext) => Problem[] | Promise<Problem[]>;
