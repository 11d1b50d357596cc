/**
 * The on-disk format of one local issue: YAML front matter (`title`, `state`,
 * `labels`), the body, then comments appended as `## Comment (<key>)` sections so the
 * file stays readable and the key makes comments idempotent.
 *
 * Updates go through a YAML Document so keys and comments a person added to the front
 * matter survive our edits.
 */
import { parseDocument, type Document } from 'yaml';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export interface IssueFile {
  readonly frontMatter: Document;
  readonly title: string;
  readonly state: 'open' | 'closed';
  readonly labels: readonly string[];
  /** Text after the front matter up to the first comment section. */
  readonly body: string;
  /** Everything after the front matter, comments included, exactly as stored. */
  readonly rest: string;
  readonly commentKeys: readonly string[];
}

const EXPECTED =
  'a file starting with `---`, YAML front matter with `title` (string), `state` (open|closed) and `labels` (list of strings), a closing `---`, then the body';
const COMMENT_HEADING = /^## Comment \((.+)\)[ \t]*$/gm;

export function commentHeading(key: string): string {
  return `## Comment (${key})`;
}

/**
 * The front matter as YAML; a title written as people write titles (`title: parser: fails
 * on empty input`, which YAML reads as a nested mapping) is read as the text it is, and
 * quoted when the file is written back.
 */
function parseFront(yaml: string): Document {
  const doc = parseDocument(yaml);
  if (doc.errors.length === 0) return doc;
  const quoted = yaml.replace(
    /^(title:[ \t]+)(?![[{"'|>&*!%@`])(\S.*?:[ \t].*?)[ \t]*$/m,
    (_all, key: string, value: string) => `${key}${JSON.stringify(value)}`,
  );
  return quoted === yaml ? doc : parseDocument(quoted);
}

export function parseIssueFile(text: string, path: string): IssueFile {
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) throw malformed(path, 'no front matter block delimited by `---` lines');
  const frontMatter = parseFront(match[1] ?? '');
  if (frontMatter.errors.length > 0)
    throw malformed(path, `invalid YAML: ${frontMatter.errors[0]?.message.split('\n')[0]}`);
  const data: unknown = frontMatter.toJS();
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw malformed(path, 'front matter is not a mapping');
  const record = data as Record<string, unknown>;

  const title = record['title'];
  if (typeof title !== 'string' || title.trim() === '') throw malformed(path, '`title` is missing or not a string');
  const state = record['state'] ?? 'open';
  if (state !== 'open' && state !== 'closed') throw malformed(path, `\`state\` is ${JSON.stringify(state)}`);
  const labels = record['labels'] ?? [];
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string'))
    throw malformed(path, '`labels` is not a list of strings');

  const rest = text.slice(match[0].length);
  const firstComment = rest.search(/^## Comment \(.+\)[ \t]*$/m);
  const body = (firstComment === -1 ? rest : rest.slice(0, firstComment)).trim();
  const commentKeys = [...rest.matchAll(COMMENT_HEADING)].map((m) => m[1] ?? '');
  return { frontMatter, title, state, labels, body, rest, commentKeys };
}

/**
 * Serialises front matter + the stored rest (body and comments) unchanged. Flow lists
 * keep the spacing people write (`[bug]`, not the library's default `[ bug ]`).
 */
export function renderIssueFile(frontMatter: Document, rest: string): string {
  const yaml = frontMatter.toString({ flowCollectionPadding: false }).replace(/\n+$/, '');
  return `---\n${yaml}\n---\n${rest}`;
}

/** Appends a readable comment section; the heading carries the idempotency key. */
export function appendComment(rest: string, key: string, text: string): string {
  const trimmed = rest.replace(/\s+$/, '');
  return `${trimmed}${trimmed === '' ? '' : '\n\n'}${commentHeading(key)}\n\n${text.trim()}\n`;
}

function malformed(path: string, problem: string): AgentError {
  return new AgentError(FailureType.ConfigInvalid, `Malformed issue file ${path}: ${problem}`, {
    where: path,
    expected: EXPECTED,
  });
}

/** Replaces the text of the comment with this key (appends it when absent): an edit in place. */
export function replaceComment(rest: string, key: string, text: string): string {
  const heading = commentHeading(key);
  const start = rest.indexOf(`${heading}\n`);
  if (start === -1) return appendComment(rest, key, text);
  const after = rest.slice(start + heading.length + 1);
  const next = after.search(/^## Comment \(.+\)[ \t]*$/m);
  const tail = next === -1 ? '' : `\n${after.slice(next)}`;
  return `${rest.slice(0, start)}${heading}\n\n${text.trim()}\n${tail}`;
}
