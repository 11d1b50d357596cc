/**
 * Reads schema files once per resolution session. A session is short (one activity
 * call, or one `validate` run) so that a long-lived worker never serves a schema that
 * was edited on disk; within a session every step that shares `common.schema.json`
 * reads it once. Paths are confined to the schemas directory.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { JsonValue } from '../../contracts/json.js';
import { parseJsonText } from '../load/read-json-file.js';
import { schemaError, schemaWhere } from './schema-error.js';
import { isInside } from '../load/path-inside.js';

export class SchemaFileCache {
  readonly schemasDir: string;
  private readonly files = new Map<string, Promise<JsonValue>>();

  constructor(schemasDir: string) {
    this.schemasDir = path.resolve(schemasDir);
  }

  /** `file` is relative to the schemas directory. Throws SCHEMA_RESOLUTION when unreadable or invalid. */
  load(file: string): Promise<JsonValue> {
    const key = this.normalise(file);
    let pending = this.files.get(key);
    if (!pending) {
      pending = this.read(key);
      this.files.set(key, pending);
    }
    return pending;
  }

  /** Normalised schemas-relative path, `/`-separated; rejects paths leaving the directory. */
  normalise(file: string): string {
    const abs = path.resolve(this.schemasDir, file);
    if (!isInside(this.schemasDir, abs)) {
      throw schemaError(
        `schema file '${file}' is outside the schemas directory`,
        schemaWhere(file, ''),
        'a path inside schemas/',
      );
    }
    return path.relative(this.schemasDir, abs).split(path.sep).join('/');
  }

  private async read(rel: string): Promise<JsonValue> {
    let text: string;
    try {
      text = await readFile(path.join(this.schemasDir, rel), 'utf8');
    } catch {
      throw schemaError(
        `schema file not found: ${path.join(this.schemasDir, rel)}`,
        schemaWhere(rel, ''),
        'an existing schema file',
      );
    }
    const parsed = parseJsonText(text);
    if (!parsed.ok) {
      throw schemaError(
        `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}`,
        schemaWhere(rel, ''),
        'valid JSON',
      );
    }
    return parsed.value as JsonValue;
  }
}
