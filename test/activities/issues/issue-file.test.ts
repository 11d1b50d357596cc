/**
 * A local issue file's front matter: a title with a colon in it, written as people write
 * titles (unquoted), is read as the text it is (YAML alone reads it as a nested mapping
 * and the run refused the file), and written back quoted; a file that is broken otherwise
 * still names the problem.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIssueFile, renderIssueFile } from '../../../src/activities/issues/issue-file.js';

test('an unquoted title with a colon is the title; written back, it is quoted', () => {
  const file = parseIssueFile('---\ntitle: parser: fails on empty input\nstate: open\n---\nThe body.\n', 'x.md');
  assert.equal(file.title, 'parser: fails on empty input');
  assert.equal(file.body, 'The body.');
  const written = renderIssueFile(file.frontMatter, file.rest);
  assert.match(written, /^title: "parser: fails on empty input"$/m);
  assert.equal(parseIssueFile(written, 'x.md').title, 'parser: fails on empty input');
});

test('other broken front matter is still refused with the reason', () => {
  assert.throws(() => parseIssueFile('---\ntitle: ok\nlabels: [a\n---\nbody\n', 'y.md'), /invalid YAML/);
  assert.equal(parseIssueFile('---\ntitle: "quoted: fine"\n---\n', 'z.md').title, 'quoted: fine');
});

test('written back, the front matter keeps what the person wrote: `[bug]` stays `[bug]`, comments stay', () => {
  const text = '---\ntitle: T\nstate: open # still open\nlabels: [bug, ui]\n---\nBody.\n';
  const file = parseIssueFile(text, 'w.md');
  file.frontMatter.set('state', 'closed');
  const written = renderIssueFile(file.frontMatter, file.rest);
  assert.match(written, /^labels: \[bug, ui\]$/m);
  assert.match(written, /^state: closed # still open$/m);
  assert.equal(renderIssueFile(parseIssueFile(text, 'w.md').frontMatter, file.rest), text);
});
