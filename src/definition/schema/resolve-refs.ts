/**
 * Inlines `$ref`s and flattens `allOf` so a step schema is self-contained.
 * - `$ref` is `<file>#<pointer>`; the file part is relative to the file holding the ref.
 * - Sibling keys of a `$ref` are kept and merged on top of the target like `allOf`'s own
 *   keys (upstream dropped them silently, which hid overrides).
 * - A ref already on the current chain is a cycle: the error names the whole chain.
 * - Refs nest at most MAX_REF_DEPTH deep.
 */
import path from 'node:path';
import type { JsonObject, JsonValue } from '../../contracts/json.js';
import { isJsonObject } from '../../contracts/json.js';
import { getAtPointer, parsePointer } from './json-pointer.js';
import { mergeMembers, mergeOwn } from './merge-all-of.js';
import { schemaError, schemaWhere } from './schema-error.js';
import type { SchemaFileCache } from './schema-file-cache.js';

export const MAX_REF_DEPTH = 50;

/** Keywords whose values are data, not schemas: never searched for `$ref`. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

export interface SchemaLocation {
  /** schemas-relative file. */
  readonly file: string;
  /** JSON pointer inside the file (`''` for the root). */
  readonly pointer: string;
}

interface Walk {
  readonly at: SchemaLocation;
  /** `file#pointer` of every ref being resolved above this node. */
  readonly chain: readonly string[];
}

export class RefResolver {
  constructor(private readonly files: SchemaFileCache) {}

  /** Resolves the schema at `location` (whose raw value is `node`). */
  resolve(node: JsonValue, location: SchemaLocation): Promise<JsonValue> {
    return this.walk(node, { at: location, chain: [`${location.file}#${location.pointer}`] });
  }

  private async walk(node: JsonValue, w: Walk): Promise<JsonValue> {
    if (Array.isArray(node)) return Promise.all(node.map((item, i) => this.walk(item, child(w, String(i)))));
    if (!isJsonObject(node)) return node;
    const { $ref, allOf, ...rest } = node;
    const own = await this.walkKeys(rest, w);
    // A $ref target and allOf members are all bases; the node's own keys go on top.
    const bases: JsonValue[] = [];
    if (typeof $ref === 'string') bases.push(await this.follow($ref, w));
    else if ($ref !== undefined) own.$ref = $ref;
    if (Array.isArray(allOf)) {
      const w2 = child(w, 'allOf');
      bases.push(...(await Promise.all(allOf.map((m, i) => this.walk(m, child(w2, String(i)))))));
    } else if (allOf !== undefined) own.allOf = allOf;
    if (bases.length === 0) return own;
    if (bases.length === 1 && !isJsonObject(bases[0])) return Object.keys(own).length === 0 ? (bases[0] ?? null) : own;
    return this.withBase(mergeMembers(bases.filter(isJsonObject)), own);
  }

  private withBase(base: JsonValue, own: JsonObject): JsonValue {
    if (Object.keys(own).length === 0) return base;
    return isJsonObject(base) ? mergeOwn(base, own) : own;
  }

  private async walkKeys(node: JsonObject, w: Walk): Promise<JsonObject> {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = DATA_KEYWORDS.has(key) ? value : await this.walk(value, child(w, key));
    }
    return out;
  }

  private async follow(ref: string, w: Walk): Promise<JsonValue> {
    const here = schemaWhere(w.at.file, w.at.pointer);
    const hash = ref.indexOf('#');
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) {
      throw schemaError(`remote $ref '${ref}' is not supported`, here, 'a file in the schemas directory');
    }
    const file =
      filePart === '' ? w.at.file : this.files.normalise(path.posix.join(path.posix.dirname(w.at.file), filePart));
    const key = `${file}#${fragment}`;
    const seen = w.chain.indexOf(key);
    if (seen >= 0) {
      throw schemaError(
        `circular $ref: ${[...w.chain.slice(seen), key].join(' -> ')}`,
        here,
        'a $ref chain without cycles',
      );
    }
    if (w.chain.length > MAX_REF_DEPTH) {
      throw schemaError(
        `$ref nesting deeper than ${MAX_REF_DEPTH}: ${w.chain.join(' -> ')}`,
        here,
        `at most ${MAX_REF_DEPTH} nested $refs`,
      );
    }
    const target = await this.lookup(file, fragment, here);
    return this.walk(target, { at: { file, pointer: fragment }, chain: [...w.chain, key] });
  }

  private async lookup(file: string, fragment: string, here: string): Promise<JsonValue> {
    const root = await this.files.load(file);
    let segments: string[];
    try {
      segments = parsePointer(fragment);
    } catch (error) {
      throw schemaError((error as Error).message, here, 'a JSON pointer such as #/$defs/name');
    }
    const found = getAtPointer(root, segments);
    if (!found.found) {
      throw schemaError(
        `$ref target '${file}#${fragment}' not found (no '${found.missing}')`,
        here,
        'an existing JSON pointer',
      );
    }
    return found.value;
  }
}

function child(w: Walk, segment: string): Walk {
  const escaped = segment.replace(/~/g, '~0').replace(/\//g, '~1');
  return { at: { file: w.at.file, pointer: `${w.at.pointer}/${escaped}` }, chain: w.chain };
}
