/**
 * The files of a `custom` completion type's handler that belong to the definition (and
 * so to the run's snapshot, definition-files.ts): the handler module itself, and every
 * `package.json` from its directory up to the agent directory (its `type` decides
 * whether a `.js` handler is an ES module, so the snapshot copy loads as the original
 * does). A run loads the handler from its snapshot only: editing the module mid-run
 * changes nothing for that run.
 *
 * The handler is one self-contained module: other files it imports by relative path,
 * and packages installed beside the agent, are not part of the snapshot and do not
 * resolve from it (Node built-ins do).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { VerdictSpec } from '../../contracts/definition.js';
import { isStrictlyInside } from './path-inside.js';

/** The `handlerPath` of each `custom` verdict (composite children included), as written. */
export function verdictHandlerPaths(verdict: VerdictSpec): string[] {
  const own = verdict.type === 'custom' ? verdict.config['handlerPath'] : undefined;
  return [
    ...(typeof own === 'string' && own !== '' ? [own] : []),
    ...(verdict.children ?? []).flatMap(verdictHandlerPaths),
  ];
}

/** Where `handlerPath` leads from `agentDir`, or undefined when that is outside it. */
export function handlerFile(agentDir: string, handlerPath: string): string | undefined {
  const abs = path.resolve(agentDir, handlerPath);
  return isStrictlyInside(agentDir, abs) ? abs : undefined;
}

/** Absolute paths of the handler files that exist (a missing handler is a load error of its own). */
export function verdictHandlerFiles(agentDir: string, verdict: VerdictSpec): string[] {
  const files: string[] = [];
  for (const handlerPath of verdictHandlerPaths(verdict)) {
    const abs = handlerFile(agentDir, handlerPath);
    if (abs === undefined || !isFile(abs)) continue;
    files.push(abs);
    for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
      const manifest = path.join(dir, 'package.json');
      if (isFile(manifest)) files.push(manifest);
      if (path.relative(agentDir, dir) === '' || path.dirname(dir) === dir) break;
    }
  }
  return files;
}

function isFile(abs: string): boolean {
  return existsSync(abs) && statSync(abs).isFile();
}
