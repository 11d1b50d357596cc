/** Strips a leading `---` YAML front matter block from a prompt file. PURE. */
export function stripFrontMatter(text: string): string {
  const match = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return match ? text.slice(match[0].length).replace(/^\s*\r?\n/, '') : text;
}
