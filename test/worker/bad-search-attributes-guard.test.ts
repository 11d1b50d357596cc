/**
 * The BadSearchAttributes guard at its ports: a refused registration terminates the runs
 * whose workflow task keeps failing, with the server's reason and the exact commands; a
 * registration that works leaves them to retry; other log lines do nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  badSearchAttributesGuard,
  type GuardPorts,
  type StuckRun,
} from '../../src/worker/bad-search-attributes-guard.js';
import { REQUIRED_SEARCH_ATTRIBUTES } from '../../src/host/temporal/search-attributes-check.js';

const at = { address: 'temporal.example:7233', namespace: 'team' };
const LOG =
  '2026-11-24T00:00:00.000Z [WARN] Error while completing workflow activation {"error":"code: \'Client specified an invalid argument\', message: \\"BadSearchAttributes: Namespace team has no mapping defined for search attribute RunPhase\\""}';
const stuck: StuckRun = {
  workflowId: 'repo/issue-agent/issue-1',
  runId: 'r1',
  failure: 'BadSearchAttributes: Namespace team has no mapping defined for search attribute RunPhase',
};

function ports(options: { refuse: boolean; has: string[] }) {
  const terminated: Array<{ run: StuckRun; reason: string }> = [];
  let added = 0;
  const p: GuardPorts = {
    operator: {
      listSearchAttributes: async () => ({
        customAttributes: Object.fromEntries(
          REQUIRED_SEARCH_ATTRIBUTES.filter((a) => options.has.includes(a.name) || added > 0).map((a) => [
            a.name,
            { KEYWORD: 2, INT: 3, DOUBLE: 4 }[a.type as string] ?? 0,
          ]),
        ),
      }),
      addSearchAttributes: async () => {
        if (options.refuse)
          throw Object.assign(new Error('7 PERMISSION_DENIED: denied'), { code: 7, details: 'denied' });
        added++;
        return {};
      },
    },
    stuckRuns: async () => [stuck],
    terminate: async (run, reason) => void terminated.push({ run, reason }),
  };
  return { p, terminated, added: () => added };
}

const allBut = (name: string) => REQUIRED_SEARCH_ATTRIBUTES.map((a) => a.name).filter((n) => n !== name);

test('refused: the stuck run is terminated with the reason and the commands that fix it', async () => {
  const { p, terminated } = ports({ refuse: true, has: allBut('RunPhase') });
  const lines: string[] = [];
  const guard = badSearchAttributesGuard(p, at, (l) => lines.push(l));
  guard.notice(LOG);
  guard.notice(LOG); // a loop of lines: one repair
  await guard.idle();
  assert.equal(terminated.length, 1);
  assert.equal(terminated[0]!.run.workflowId, stuck.workflowId);
  assert.match(
    terminated[0]!.reason,
    /^BadSearchAttributes: Namespace team has no mapping defined for search attribute RunPhase\. /,
  );
  assert.match(
    terminated[0]!.reason,
    /temporal operator search-attribute create --address temporal\.example:7233 --namespace team --name RunPhase --type Keyword/,
  );
  assert.match(lines.join('\n'), /terminated repo\/issue-agent\/issue-1/);
});

test('registration works: nothing is terminated, the run retries', async () => {
  const { p, terminated, added } = ports({ refuse: false, has: allBut('RunPhase') });
  const lines: string[] = [];
  const guard = badSearchAttributesGuard(p, at, (l) => lines.push(l));
  guard.notice(LOG);
  await guard.idle();
  assert.equal(added(), 1);
  assert.equal(terminated.length, 0);
  assert.match(lines[0]!, /^registered search attributes RunPhase on namespace team/);
});

test('nothing of ours missing: the run set something else, it is terminated with the server reason', async () => {
  const { p, terminated } = ports({ refuse: false, has: REQUIRED_SEARCH_ATTRIBUTES.map((a) => a.name) });
  const guard = badSearchAttributesGuard(p, at, () => undefined);
  guard.notice(LOG);
  await guard.idle();
  assert.equal(terminated.length, 1);
  assert.match(terminated[0]!.reason, /has every search attribute issue-agent sets/);
});

test('other log lines do nothing', async () => {
  const { p, terminated, added } = ports({ refuse: true, has: [] });
  const guard = badSearchAttributesGuard(p, at, () => undefined);
  guard.notice('[WARN] Workflow task timed out');
  await guard.idle();
  assert.equal(terminated.length + added(), 0);
});
