/**
 * Reads and parses one JSON file of a definition. A missing file or a syntax error
 * becomes a Problem naming the file (and the line/column for syntax errors) instead
 * of an exception, so the loader can keep collecting problems from the other files.
 */
import { readFile } from 'node:fs/promises';
import { problem, type Problem } from '../problem.js';
import { isMissing } from './read-optional.js';

export type ReadJsonResult =
  | { readonly ok: true; readonly value: unknown; readonly text: string }
  | { readonly ok: false; readonly problem: Problem };

/** Reads `absPath`; `file` is the agentDir-relative name used in problems. */
export async function readJsonFile(absPath: string, file: string): Promise<ReadJsonResult> {
  let text: string;
  try {
    text = await readFile(absPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      problem: problem({
        code: 'FILE_MISSING',
        file,
        pointer: '',
        rule: 'file-exists',
        expected: 'a readable JSON file',
        message: isMissing(error) ? `file not found: ${absPath}` : `cannot read ${absPath} (${code ?? 'error'})`,
      }),
    };
  }
  const parsed = parseJsonText(text);
  if (parsed.ok) return { ok: true, value: parsed.value, text };
  return {
    ok: false,
    problem: problem({
      code: 'JSON_PARSE',
      file,
      pointer: '',
      rule: 'valid-json',
      expected: 'valid JSON',
      message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}`,
    }),
  };
}

export type ParseJsonResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly line: number; readonly column: number; readonly reason: string };

/** JSON.parse with a 1-based line/column taken from V8's error text (position or line/column form). */
export function parseJsonText(text: string): ParseJsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const lineCol = /line (\d+) column (\d+)/.exec(reason);
    if (lineCol) return { ok: false, line: Number(lineCol[1]), column: Number(lineCol[2]), reason };
    const position = /position (\d+)/.exec(reason);
    // "Unexpected end of JSON input" carries no position: the problem is at the end.
    const offset = position ? Number(position[1]) : text.length;
    const { line, column } = lineColumnAt(text, offset);
    return { ok: false, line, column, reason };
  }
}

function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}
