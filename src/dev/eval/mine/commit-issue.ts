/**
 * A mined task's issue, from its commit message: the subject is the title, the body the
 * body, with the trailer block (`Signed-off-by:`, `Co-authored-by:` …) left out. A
 * first-parent merge of a pull request (`Merge pull request #12 from …`) takes its title
 * from the body's first line, where GitHub puts the pull request's title. PURE.
 */

export interface CommitIssue {
  readonly title: string;
  readonly body: string;
}

const TRAILER = /^[A-Za-z][A-Za-z0-9-]*: \S/;
const MERGE = /^Merge (pull request|branch|remote-tracking branch) /;

function withoutTrailers(paragraphs: string[]): string[] {
  const last = paragraphs[paragraphs.length - 1];
  if (last !== undefined && last.split('\n').every((l) => TRAILER.test(l) || /^\s/.test(l)))
    return paragraphs.slice(0, -1);
  return paragraphs;
}

export function commitIssue(message: string): CommitIssue {
  const text = message.replace(/\r\n/g, '\n').trim();
  const [subject = '', ...rest] = text.split('\n');
  const paragraphs = withoutTrailers(
    rest
      .join('\n')
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean),
  );
  let title = subject.trim();
  let body = paragraphs.join('\n\n');
  if (MERGE.test(title) && body !== '') {
    const [first = '', ...others] = body.split('\n');
    title = first.trim();
    body = others.join('\n').trim();
  }
  return { title, body };
}

/** SWE-bench's problem statement: the title, then the body. */
export function problemStatement(issue: CommitIssue): string {
  return issue.body === '' ? issue.title : `${issue.title}\n\n${issue.body}`;
}
