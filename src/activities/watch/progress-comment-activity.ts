/**
 * The progress-comment activity: renders the run's view with prompts/comments/progress.md
 * and puts it in one comment on the issue, created once and then edited in place.
 *
 * Idempotent on retry: the comment carries a hidden marker with the run's key, so an
 * attempt that created the comment but died before returning its id finds it instead
 * of posting a second one; later calls carry the id (kept in the run) and edit it. An
 * edit whose text equals the last one sent from this worker is skipped. Every string
 * goes through the worker's secret redactor before it leaves the process.
 */
import type {
  ProgressActivities,
  ProgressCommentInput,
  ProgressCommentOutput,
} from '../../contracts/progress-comment.js';
import { atEdge } from '../edge/to-failure.js';
import type { LocalIssueStore } from '../issues/local-issue-store.js';
import type { WatchConnector } from './watch-connector.js';
import { fill, progressValues, readTemplate } from './comment-templates.js';

export interface ProgressCommentDeps {
  readonly github: WatchConnector;
  readonly local: (repoPath: string) => LocalIssueStore;
  readonly redact: (text: string) => string;
  readonly templatesDir?: string;
}

export const progressMarker = (runKey: string): string => `<!-- issue-agent:progress ${runKey} -->`;

export async function renderProgress(input: ProgressCommentInput, templatesDir?: string): Promise<string> {
  const template = await readTemplate('progress', templatesDir);
  return fill(template, progressValues(input.view, input.issue))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function createProgressActivities(deps: ProgressCommentDeps): ProgressActivities {
  const lastSent = new Map<string, string>();
  return {
    updateProgressComment: atEdge(async (input): Promise<ProgressCommentOutput> => {
      const text = deps.redact(await renderProgress(input, deps.templatesDir));
      switch (input.issueSource) {
        case 'local':
          await deps.local(input.repoPath).upsertComment(input.issue, `progress ${input.runKey}`, text);
          return {};
        case 'github': {
          const body = `${text}\n\n${progressMarker(input.runKey)}`;
          const port = await deps.github(input.repoPath);
          let id = input.commentId ?? (await port.findComment(input.issue, progressMarker(input.runKey)))?.id;
          if (id === undefined) id = (await port.createComment(input.issue, body)).id;
          else if (lastSent.get(`${input.runKey}#${id}`) !== body) await port.updateComment(id, body);
          lastSent.set(`${input.runKey}#${id}`, body);
          if (lastSent.size > 500) lastSent.delete(lastSent.keys().next().value as string);
          return { commentId: id };
        }
      }
    }),
  };
}
