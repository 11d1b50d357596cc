/**
 * The architecture, enforced: workflow code reaches no I/O (no Node built-ins, no
 * activity implementations, no I/O packages — followed transitively), and the four
 * layers import one way: configuration → execution → judgment → connection, i.e. a
 * layer never imports a layer to its left. src/contracts is shared by all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');
const LAYERS = ['configuration', 'execution', 'judgment', 'connection'] as const;
const WORKFLOW_PACKAGES = new Set(['@temporalio/workflow', '@temporalio/common']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Value imports only: `import type` and `export type` vanish at runtime. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) specs.push((m[2] ?? m[3])!);
  return specs;
}

function resolveRelative(from: string, spec: string): string {
  return resolve(dirname(from), spec.replace(/\.js$/, '.ts'));
}

function layerOf(file: string): string | undefined {
  const top = relative(SRC, file).split('/')[0];
  return top;
}

test('workflow code imports no Node built-ins, I/O packages or activity code (transitively)', () => {
  const seen = new Set<string>();
  const queue = filesUnder(join(SRC, 'workflows'));
  const violations: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of valueImports(file)) {
      const where = relative(SRC, file);
      if (spec.startsWith('.')) {
        const target = resolveRelative(file, spec);
        const top = layerOf(target);
        if (top === 'activities' || top === 'connection' || top === 'configuration' || top === 'cli') {
          violations.push(`${where} imports ${spec} (${top} code does I/O)`);
        } else {
          queue.push(target);
        }
      } else if (spec.startsWith('node:') || builtinModules.includes(spec)) {
        violations.push(`${where} imports the Node built-in ${spec}`);
      } else if (!WORKFLOW_PACKAGES.has(spec)) {
        violations.push(`${where} imports the package ${spec}`);
      }
    }
  }
  assert.deepEqual(violations, []);
  assert.ok(seen.size > 5, 'the walk reached the workflow modules');
});

test('layers import one way: never a layer to their left', () => {
  const violations: string[] = [];
  for (const [index, layer] of LAYERS.entries()) {
    for (const file of filesUnder(join(SRC, layer))) {
      for (const spec of valueImports(file).filter((s) => s.startsWith('.'))) {
        const top = layerOf(resolveRelative(file, spec));
        if (top === 'contracts' || top === layer) continue;
        const targetIndex = LAYERS.indexOf(top as (typeof LAYERS)[number]);
        if (targetIndex === -1 || targetIndex < index) violations.push(`${relative(SRC, file)} (${layer}) imports ${spec} (${top})`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

test('contracts are pure: no Node built-ins and no packages', () => {
  const violations = filesUnder(join(SRC, 'contracts')).flatMap((file) =>
    valueImports(file)
      .filter((spec) => !spec.startsWith('.'))
      .map((spec) => `${relative(SRC, file)} imports ${spec}`),
  );
  assert.deepEqual(violations, []);
});
