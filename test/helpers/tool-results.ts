/**
 * What the tools answered in a step, from its transcript: the text of every
 * `tool_result` block, joined. Attack tests assert on this, never on the whole
 * transcript, which also holds the model's own command text: a check such as
 * "ATTACK x: refused" would otherwise match the `echo` that prints it, and pass
 * whatever the sandbox did.
 */
interface Block {
  readonly type?: string;
  readonly text?: string;
  readonly content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Block[]).map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n');
}

export function toolResultText(transcript: string): string {
  const parsed = JSON.parse(transcript) as { messages?: { content?: unknown }[] };
  const out: string[] = [];
  for (const message of parsed.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Block[]) if (block.type === 'tool_result') out.push(textOf(block.content));
  }
  return out.join('\n');
}
