/**
 * The text of the comments the watcher and the progress comment post: templates in
 * prompts/comments/ (`{{name}}` placeholders), read once per process, so wording is
 * edited there and never in code. PURE apart from reading the template files.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProgressView } from '../../contracts/progress-comment.js';

/** src/activities/watch → the package root (dist/activities/watch likewise). */
export const COMMENT_TEMPLATES_DIR = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'),
  'prompts',
  'comments',
);

const cache = new Map<string, Promise<string>>();

export function readTemplate(name: string, dir: string = COMMENT_TEMPLATES_DIR): Promise<string> {
  const path = join(dir, `${name}.md`);
  let text = cache.get(path);
  if (text === undefined) {
    text = readFile(path, 'utf8');
    text.catch(() => cache.delete(path));
    cache.set(path, text);
  }
  return text;
}

/** Replaces `{{name}}`; an unknown name is left visible so a template typo shows. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{([a-zA-Z]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

const MARK = { done: '- [x]', current: '- [ ] **→**', pending: '- [ ]' } as const;

/** The values of prompts/comments/progress.md for one view. */
export function progressValues(view: ProgressView, issue: number): Record<string, string> {
  const checklist = view.steps.map((s) => `${MARK[s.mark]} \`${s.stepId}\``).join('\n');
  const o = view.outcome;
  const delivered = o?.prUrl ?? (o?.branch === undefined ? undefined : `branch \`${o.branch}\``);
  const outcome =
    o === undefined
      ? ''
      : `**Outcome: ${o.kind}**${delivered === undefined ? '' : ` · ${delivered}`}\n\n${oneLine(o.reason, 300)}`;
  return {
    title: o === undefined ? `Working on #${issue}` : `Finished #${issue}: ${o.kind}`,
    checklist: checklist === '' ? '- [ ] preparing' : checklist,
    phase: view.phase,
    iteration: String(view.iteration),
    maxIterations: String(view.maxIterations),
    tokens: String(view.tokens),
    cost: view.costUsd.toFixed(4),
    verdict: view.verdict === undefined ? '-' : oneLine(view.verdict, 160),
    link: view.uiUrl === undefined ? '-' : `[Temporal Web UI](${view.uiUrl})`,
    outcome,
  };
}

export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
