/**
 * YAML front matter at the top of a prompt file (`---` … `---`) carries metadata for
 * people and tools, never text for the model: it is removed before substitution.
 */
import { parse } from 'yaml';

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface SplitPrompt {
  /** Parsed front matter (empty when absent or not a mapping). */
  readonly meta: Readonly<Record<string, unknown>>;
  readonly body: string;
}

export function splitFrontMatter(text: string): SplitPrompt {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const match = FRONT_MATTER.exec(source);
  if (!match) return { meta: {}, body: source };
  // Blank lines that only separate the front matter from the text are part of the block.
  return { meta: parseMeta(match[1] ?? ''), body: source.slice(match[0].length).replace(/^\s*\r?\n/, '') };
}

export function stripFrontMatter(text: string): string {
  return splitFrontMatter(text).body;
}

function parseMeta(yamlText: string): Readonly<Record<string, unknown>> {
  try {
    const value: unknown = parse(yamlText);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    // Malformed metadata must not block a prompt: the body is still well defined.
    return {};
  }
}
