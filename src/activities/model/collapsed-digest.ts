/**
 * The digest blocks of collapsed turns (turn-collapse.ts): the wording of
 * prompts/harness/collapsed-turns.md (the first chunk, which says what the digest is and
 * where the full outputs are) and prompts/harness/collapsed-turn.md (one line per call).
 * Each output goes to the step's artifact store as `turn-<T>-<C>`, so the model can read it
 * back with bash. The same calls always yield the same text (the prompt cache depends on
 * it): the note is the model's own text cut at a fixed length, the sizes are the output's.
 */
import { dirname } from 'node:path';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import { fill, readTemplate } from '../watch/comment-templates.js';
import { HARNESS_TEMPLATES_DIR, describeCall } from './masked-placeholder.js';
import type { CollapsedCall, DigestWriter } from './turn-collapse.js';

/** How much of the model's note of a turn is kept (~25 tokens). */
export const SAID_CHARS = 100;

function note(said: string): string {
  const line = said.replace(/\s+/g, ' ').trim();
  if (line === '') return '';
  return `${line.length > SAID_CHARS ? `${line.slice(0, SAID_CHARS - 1)}…` : line} → `;
}

export function createCollapsedDigest(
  store: ArtifactStore,
  templatesDir: string = HARNESS_TEMPLATES_DIR,
): DigestWriter {
  let dir: string | undefined;
  const stored = new Map<string, Promise<void>>();
  const keep = (c: CollapsedCall): Promise<void> => {
    const label = `turn-${c.turn}-${c.call}`;
    let done = stored.get(label);
    if (done === undefined) {
      done = store.put(label, c.content).then((ref) => {
        dir ??= dirname(ref.path);
      });
      done.catch(() => stored.delete(label));
      stored.set(label, done);
    }
    return done;
  };
  return async (calls, first) => {
    await Promise.all(calls.map(keep));
    const line = (await readTemplate('collapsed-turn', templatesDir)).trim();
    const lines = calls
      .map((c) =>
        fill(line, {
          turn: String(c.turn),
          call: String(c.call),
          said: note(c.said),
          tool: describeCall(c.toolName, c.input),
          chars: c.content.length.toLocaleString('en-US'),
        }),
      )
      .join('\n');
    if (!first) return lines;
    const header = (await readTemplate('collapsed-turns', templatesDir)).trim();
    return fill(header, { dir: dir ?? '.', lines });
  };
}
