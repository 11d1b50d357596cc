/**
 * Folders of workflow code import one way: no folder of src/workflows/ may reach itself
 * again through another (flow → completion → flow was one). The relative imports of
 * every .ts file under src/ (`import`, `import type`, `export … from`, dynamic
 * `import()`) are read with a small regex, each file's folder becomes a node, and any
 * strongly connected set of folders is a cycle, listed with the imports that make it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const WORKFLOWS = join(SRC, 'workflows');

function tsFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return tsFiles(path);
      return name.endsWith('.ts') ? [path] : [];
    });
}

const IMPORT_PATTERNS = [
  /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
];

/** The relative specifiers a file imports (values and types alike). */
export function relativeImports(text: string): string[] {
  return IMPORT_PATTERNS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
}

/** The .ts file a specifier names (`./a.js` is `./a.ts`), or undefined outside the sources. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c));
}

/** A workflow file's folder relative to src/workflows/ ('.' for the root files). */
function folderOf(file: string): string {
  return relative(WORKFLOWS, dirname(file)).split(sep).join('/') || '.';
}

export interface FolderEdge {
  readonly from: string;
  readonly to: string;
  /** One import that makes the edge, `file -> imported file`, for the message. */
  readonly via: string;
}

/** Folder-level imports between different folders of src/workflows/. */
function workflowFolderEdges(): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const file of tsFiles(SRC)) {
    if (!file.startsWith(WORKFLOWS + sep)) continue;
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, specifier);
      if (target === undefined || !target.startsWith(WORKFLOWS + sep)) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from === to || edges.has(`${from}\0${to}`)) continue;
      edges.set(`${from}\0${to}`, { from, to, via: `${relative(ROOT, file)} -> ${relative(ROOT, target)}` });
    }
  }
  return [...edges.values()];
}

/** Every set of folders that import each other, directly or around a loop (Tarjan's SCC). */
export function folderCycles(edges: readonly FolderEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (;;) {
      const top = stack.pop()!;
      onStack.delete(top);
      component.push(top);
      if (top === node) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return cycles;
}

function describe(cycle: readonly string[], edges: readonly FolderEdge[]): string {
  const inside = edges.filter((e) => cycle.includes(e.from) && cycle.includes(e.to));
  return `${cycle.join(' <-> ')}:\n${inside.map((e) => `    ${e.from} -> ${e.to} (${e.via})`).join('\n')}`;
}

test('the import regex reads value, type, re-export, side-effect and dynamic imports', () => {
  const text = [
    "import { a } from './a.js';",
    "import type { B } from '../b/b.js';",
    'import {\n  c,\n  type D,\n} from "./c.js";',
    "export { e } from './e.js';",
    "import './f.js';",
    "const g = await import('./g.js');",
    "import { h } from '@temporalio/workflow';",
  ].join('\n');
  assert.deepEqual(relativeImports(text).sort(), ['../b/b.js', './a.js', './c.js', './e.js', './f.js', './g.js']);
});

test('the cycle finder finds a folder cycle, direct or around a loop, and nothing in a one-way graph', () => {
  const edge = (from: string, to: string): FolderEdge => ({ from, to, via: `${from}/x.ts -> ${to}/y.ts` });
  assert.deepEqual(folderCycles([edge('flow', 'completion'), edge('completion', 'flow')]), [['completion', 'flow']]);
  assert.deepEqual(folderCycles([edge('.', 'flow'), edge('flow', 'run'), edge('run', '.'), edge('batch', 'run')]), [
    ['.', 'flow', 'run'],
  ]);
  assert.deepEqual(folderCycles([edge('.', 'flow'), edge('flow', 'completion'), edge('completion', 'run')]), []);
});

test('no two folders of src/workflows/ import each other, directly or through others', () => {
  const edges = workflowFolderEdges();
  assert.ok(edges.length > 0, 'expected imports between the folders of src/workflows/');
  const cycles = folderCycles(edges);
  assert.deepEqual(
    cycles.map((c) => describe(c, edges)),
    [],
    `import cycles between folders of src/workflows/:\n${cycles.map((c) => describe(c, edges)).join('\n')}`,
  );
});
