/**
 * The command list of `issue-agent --help` is whole sentences: each summary up to its
 * first full stop or colon, closed with a full stop, never a line cut in the middle (the
 * list used to show the first line of each summary: "… at most --concurrency at a time,").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS } from '../../src/cli/flags/command-specs.js';
import { renderTopLevelHelp, summaryLine } from '../../src/cli/program.js';

test('a summary line is its first sentence, or the clause before its first colon', () => {
  assert.equal(
    summaryLine('Work many issues at once: one child run per issue,\nat most N at a time.'),
    'Work many issues at once.',
  );
  assert.equal(summaryLine('Cancel the run gracefully. The worktree is kept.'), 'Cancel the run gracefully.');
  assert.equal(
    summaryLine('Serve a model (127.0.0.1:7233)'),
    'Serve a model (127.0.0.1:7233)',
    'a colon inside a word stays',
  );
});

test('every command of the top-level help is listed with a whole sentence', () => {
  const help = renderTopLevelHelp();
  for (const spec of Object.values(COMMANDS)) {
    const line = help.split('\n').find((l) => l.trimStart().startsWith(`${spec.name} `));
    assert.ok(line !== undefined, spec.name);
    assert.match(line, /[.)]$/, `${spec.name}: ${line}`);
    assert.doesNotMatch(line, /[,:;]$/, `${spec.name} is not cut mid-sentence`);
  }
});
