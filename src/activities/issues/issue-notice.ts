/**
 * The notices a run posts on its issue while it waits for a person (contracts/human-loop.ts):
 * the budget pause (what it spent and how to extend) and the model's question (how to
 * answer). One comment through the issue source port (the local issue file's comments or
 * GitHub), idempotent by its key, so a retried activity never posts twice; then the
 * labels (the waiting label on, or off when the wait ended). The wording is a template
 * in prompts/comments/; every string goes through the worker's secret redactor.
 */
import type { HumanLoopActivities, IssueNoticeInput, IssueNoticeOutput } from '../../contracts/human-loop.js';
import { atEdge } from '../edge/to-failure.js';
import { fill, readTemplate } from '../watch/comment-templates.js';
import type { IssueSourceFactory } from './issue-source.js';

export interface IssueNoticeDeps {
  readonly issueSource: IssueSourceFactory;
  readonly redact: (text: string) => string;
  readonly templatesDir?: string;
}

/** The notice's text: its template filled with its values (PURE apart from reading the template). */
export async function renderNotice(
  comment: NonNullable<IssueNoticeInput['comment']>,
  templatesDir?: string,
): Promise<string> {
  const template = await readTemplate(comment.template, templatesDir);
  return fill(template, comment.values)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export async function postIssueNotice(deps: IssueNoticeDeps, input: IssueNoticeInput): Promise<IssueNoticeOutput> {
  const issues = deps.issueSource(input.issueSource, input.repoPath);
  let commented = false;
  if (input.comment !== undefined) {
    const text = deps.redact(await renderNotice(input.comment, deps.templatesDir));
    commented = (await issues.comment(input.issue, text, { idempotencyKey: input.comment.key })) === 'added';
  }
  const add = input.labels?.add ?? [];
  const remove = input.labels?.remove ?? [];
  if (add.length > 0 || remove.length > 0) {
    const before = (await issues.read(input.issue)).labels;
    const changes = add.some((l) => !before.includes(l)) || remove.some((l) => before.includes(l));
    if (changes) await issues.relabel(input.issue, { add, remove });
  }
  return { commented };
}

export function createHumanLoopActivities(deps: IssueNoticeDeps): HumanLoopActivities {
  return { postIssueNotice: atEdge(async (input: IssueNoticeInput) => postIssueNotice(deps, input)) };
}
