/**
 * The mini template language of retry prompts (a Handlebars subset). PURE: no I/O,
 * bundle-safe, never throws on a malformed template — a prompt file typo should
 * degrade the text, not fail the run.
 *
 *   {{a.b}}                      value at a dot path; arrays joined ", ", missing → ""
 *   {{#each arr}}…{{/each}}      repeat per item; inside: {{this}}, {{this.prop}}, {{@index}}
 *   {{#if a.b}}…{{else}}…{{/if}} falsy: null, undefined, false, 0, "", []
 *
 * Blocks nest freely (each in if, if in each, and the same kind inside itself); an
 * unmatched closing tag is kept as text, an unclosed block runs to the end.
 */

type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'var'; readonly path: string }
  | { readonly kind: 'each'; readonly path: string; readonly body: Node[] }
  | { readonly kind: 'if'; readonly path: string; readonly then: Node[]; readonly otherwise: Node[] };

interface Scope {
  readonly root: unknown;
  readonly self?: unknown;
  readonly index?: number;
  readonly parent?: Scope;
}

const TAG = /\{\{\s*(#each|#if|\/each|\/if|else)?\s*([^{}]*?)\s*\}\}/g;

export function renderTemplate(template: string, params: Readonly<Record<string, unknown>>): string {
  return renderNodes(parse(template), { root: params });
}

function parse(template: string): Node[] {
  const root: Node[] = [];
  // Open blocks: where their children go now, and the block itself.
  const stack: Array<{ block: Extract<Node, { kind: 'each' | 'if' }>; target: Node[] }> = [];
  let target = root;
  let last = 0;
  for (const match of template.matchAll(TAG)) {
    const [whole, keyword, arg = ''] = match;
    const start = match.index ?? 0;
    if (start > last) target.push({ kind: 'text', text: template.slice(last, start) });
    last = start + whole.length;
    const top = stack[stack.length - 1];
    switch (keyword) {
      case '#each':
      case '#if': {
        const block: Extract<Node, { kind: 'each' | 'if' }> =
          keyword === '#each'
            ? { kind: 'each', path: arg, body: [] }
            : { kind: 'if', path: arg, then: [], otherwise: [] };
        target.push(block);
        stack.push({ block, target });
        target = block.kind === 'each' ? block.body : block.then;
        break;
      }
      case 'else':
        if (top?.block.kind === 'if' && target === top.block.then) target = top.block.otherwise;
        else target.push({ kind: 'text', text: whole });
        break;
      case '/each':
      case '/if':
        if (top && top.block.kind === keyword.slice(1)) {
          stack.pop();
          target = top.target;
        } else {
          target.push({ kind: 'text', text: whole });
        }
        break;
      default:
        target.push(arg === '' ? { kind: 'text', text: whole } : { kind: 'var', path: arg });
    }
  }
  if (last < template.length) target.push({ kind: 'text', text: template.slice(last) });
  return root;
}

function renderNodes(nodes: readonly Node[], scope: Scope): string {
  let out = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        out += node.text;
        break;
      case 'var':
        out += display(lookup(node.path, scope));
        break;
      case 'each': {
        const items = lookup(node.path, scope);
        if (Array.isArray(items))
          items.forEach(
            (item, index) => (out += renderNodes(node.body, { root: scope.root, self: item, index, parent: scope })),
          );
        break;
      }
      case 'if':
        out += renderNodes(truthy(lookup(node.path, scope)) ? node.then : node.otherwise, scope);
        break;
    }
  }
  return out;
}

/** `this…` reads the current item; other names try the enclosing items, then the params. */
function lookup(path: string, scope: Scope): unknown {
  if (path === '@index') return scope.index;
  const parts = path.split('.').filter((p) => p !== '');
  if (parts[0] === 'this') return walk(scope.self, parts.slice(1));
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    const first = parts[0];
    if (first !== undefined && isRecord(s.self) && Object.prototype.hasOwnProperty.call(s.self, first))
      return walk(s.self, parts);
  }
  return walk(scope.root, parts);
}

function walk(value: unknown, parts: readonly string[]): unknown {
  let current = value;
  for (const part of parts) {
    if (!isRecord(current) || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(display).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
