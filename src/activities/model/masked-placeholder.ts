/**
 * What a masked tool result becomes (observation-masking.ts): the wording of
 * prompts/harness/masked-tool-result.md filled with the call, the size and the file that
 * holds the full text. The text goes to the step's artifact store under a name derived
 * from its content, so the same result always yields the same placeholder (the prompt
 * cache depends on it) and the model can read it back with bash. The placeholder names
 * the file by a glob in place of the name's sha256 (`masked-<tool_use id>.*.txt`, one file
 * per call): 64 hex digits are some 40 tokens, sent again in every later turn's prompt.
 * One per step, memoised by tool_use id so a long step does not re-store its outputs
 * every turn.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import { fill, readTemplate } from '../watch/comment-templates.js';
import type { MaskedResult } from './observation-masking.js';

/** src/activities/model → the package root's prompts/harness (dist/activities/model likewise). */
export const HARNESS_TEMPLATES_DIR = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'),
  'prompts',
  'harness',
);

const CALL_CHARS = 120;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > CALL_CHARS ? `${line.slice(0, CALL_CHARS - 1)}…` : line;
}

/** `bash \`npm test\``, `str_replace_based_edit_tool view src/a.ts`, or the tool's name. */
export function describeCall(toolName: string, input: unknown): string {
  const args = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  if (typeof args['command'] === 'string' && toolName === 'bash') return `bash \`${oneLine(args['command'])}\``;
  const parts = [args['command'], args['path']].filter((v): v is string => typeof v === 'string');
  return parts.length > 0 ? `${toolName} ${oneLine(parts.join(' '))}` : toolName;
}

export function createMaskedPlaceholder(
  store: ArtifactStore,
  templatesDir: string = HARNESS_TEMPLATES_DIR,
): (result: MaskedResult) => Promise<string> {
  const made = new Map<string, Promise<string>>();
  const make = async (result: MaskedResult): Promise<string> => {
    const ref = await store.put(`masked-${result.toolUseId}`, result.content);
    const template = await readTemplate('masked-tool-result', templatesDir);
    return fill(template.trim(), {
      call: describeCall(result.toolName, result.input),
      chars: result.content.length.toLocaleString('en-US'),
      lines: String(result.content.split('\n').length),
      path: ref.path.replace(`.${ref.sha256}.`, '.*.'),
    });
  };
  return (result) => {
    const key = `${result.toolUseId}\u0000${result.content.length}`;
    let text = made.get(key);
    if (text === undefined) {
      text = make(result);
      text.catch(() => made.delete(key));
      made.set(key, text);
    }
    return text;
  };
}
