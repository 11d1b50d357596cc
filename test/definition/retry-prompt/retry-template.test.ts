import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderRetryTemplate as renderTemplate } from '../../../src/definition/retry-prompt/retry-template.js';
import { stripFrontMatter } from '../../../src/definition/c3l/front-matter.js';

test('variables, dot paths, arrays joined, missing → empty', () => {
  const out = renderTemplate('{{name}} {{a.b}} [{{files}}] [{{missing}}] [{{a.missing.deeper}}] {{ spaced }}', {
    name: 'x',
    a: { b: 2 },
    files: ['a.ts', 'b.ts'],
    spaced: 'ok',
  });
  assert.equal(out, 'x 2 [a.ts, b.ts] [] [] ok');
});

test('#each with this, this.prop and @index; non-arrays render nothing', () => {
  const t =
    '{{#each files}}- {{this}}\n{{/each}}{{#each errors}}{{@index}}:{{this.file}}:{{this.line}} {{/each}}{{#each nope}}X{{/each}}';
  assert.equal(
    renderTemplate(t, {
      files: ['a', 'b'],
      errors: [
        { file: 'x.ts', line: 3 },
        { file: 'y.ts', line: 9 },
      ],
      nope: 'str',
    }),
    '- a\n- b\n0:x.ts:3 1:y.ts:9 ',
  );
});

test('#if / else with every falsy value', () => {
  const t = '{{#if v}}T{{else}}F{{/if}}';
  for (const v of [null, undefined, false, 0, '', []]) assert.equal(renderTemplate(t, { v }), 'F', JSON.stringify(v));
  for (const v of [true, 1, 'x', ['a'], {}]) assert.equal(renderTemplate(t, { v }), 'T', JSON.stringify(v));
  assert.equal(renderTemplate('{{#if a.b}}yes{{/if}}', { a: { b: 1 } }), 'yes');
});

test('nested blocks: each inside if, if inside each, same kind nested', () => {
  const t =
    '{{#if failures}}Failures:{{#each failures}} {{validator}}{{#if this.exitCode}}({{this.exitCode}}){{else}}(-){{/if}}{{/each}}{{else}}none{{/if}}';
  assert.equal(
    renderTemplate(t, { failures: [{ validator: 'tests', exitCode: 1 }, { validator: 'clean' }] }),
    'Failures: tests(1) clean(-)',
  );
  assert.equal(renderTemplate(t, { failures: [] }), 'none');
  const nested = '{{#each groups}}[{{#each this.items}}{{this}}{{/each}}]{{/each}}';
  assert.equal(renderTemplate(nested, { groups: [{ items: [1, 2] }, { items: [3] }] }), '[12][3]');
  const ifs = '{{#if a}}{{#if b}}ab{{else}}a{{/if}}{{else}}-{{/if}}';
  assert.equal(renderTemplate(ifs, { a: 1, b: 0 }), 'a');
});

test('inside #each, other names fall back to the params', () => {
  assert.equal(
    renderTemplate('{{#each files}}{{this}}@{{branch}} {{/each}}', { files: ['a', 'b'], branch: 'main' }),
    'a@main b@main ',
  );
});

test('a template Handlebars cannot parse renders as its own text (validation reports it first)', () => {
  assert.equal(renderTemplate('a {{/if}} b', {}), 'a {{/if}} b');
  assert.equal(renderTemplate('{{#if x}}open', { x: 1 }), '{{#if x}}open');
  assert.equal(renderTemplate('{x} {{a}}', { a: 1 }), '{x} 1');
});

test('Handlebars forms the mini language lacked: #unless, @first/@last, triple-stash, no HTML escaping', () => {
  const t = '{{#each files}}{{#if @first}}[{{/if}}{{this}}{{#unless @last}}, {{else}}]{{/unless}}{{/each}}';
  assert.equal(renderTemplate(t, { files: ['a.ts', 'b.ts', 'c.ts'] }), '[a.ts, b.ts, c.ts]');
  assert.equal(renderTemplate('{{#unless ok}}not ok{{/unless}}', { ok: false }), 'not ok');
  assert.equal(renderTemplate('{{{diff}}} {{diff}}', { diff: '<a> & "b"' }), '<a> & "b" <a> & "b"');
});

test('front matter is stripped', () => {
  assert.equal(stripFrontMatter('---\ntitle: x\n---\n\nBody {{a}}\n').trimStart(), 'Body {{a}}\n');
  assert.equal(stripFrontMatter('No front matter\n---\n'), 'No front matter\n---\n');
});
