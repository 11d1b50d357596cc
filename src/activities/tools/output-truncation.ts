/**
 * Keeps big tool outputs out of the conversation: the model sees the head and the
 * tail (where errors and summaries usually are) plus a note; the full text goes to
 * the artifact store so nothing is lost.
 */
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import { createOutputCap } from '../process/capped-text.js';

export interface TruncatedOutput {
  readonly text: string;
  readonly truncated: boolean;
  readonly artifactPath?: string;
}

export function headTail(text: string, maxChars: number): string {
  // More head than tail: the command's own framing is at the top, the verdict at the bottom.
  const cap = createOutputCap(maxChars, 0.6, (omitted) => `\n\n[... ${omitted} characters omitted ...]\n\n`);
  cap.append(text);
  return cap.text();
}

export async function truncateToolOutput(
  text: string,
  maxChars: number,
  store: ArtifactStore,
  label: string,
): Promise<TruncatedOutput> {
  if (text.length <= maxChars) return { text, truncated: false };
  const ref = await store.put(label, text);
  const note =
    `[output truncated: ${text.length} characters, showing the first and last part. ` +
    `Full output saved to ${ref.path}. Narrow the command (grep, head, tail) to see other parts.]`;
  return { text: `${headTail(text, maxChars)}\n${note}`, truncated: true, artifactPath: ref.path };
}
