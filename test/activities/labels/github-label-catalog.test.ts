/**
 * Label sync over GitHub: the catalog against a fake at our GitHub port (no globals
 * patched), with one failing label isolated; and the Octokit adapter's label calls
 * against a small local HTTP server speaking GitHub's label endpoints.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { AgentError } from '../../../src/contracts/errors.js';
import type { GitHubLabel } from '../../../src/activities/github/github-port.js';
import { createGitHubClient } from '../../../src/activities/github/octokit-github-client.js';
import { createGitHubLabelCatalog, type GitHubLabelPort } from '../../../src/activities/labels/github-label-catalog.js';
import { syncLabels } from '../../../src/activities/labels/apply-label-sync.js';

function fakePort(
  initial: GitHubLabel[],
  failOn?: string,
): GitHubLabelPort & { labels: Map<string, GitHubLabel>; calls: string[] } {
  const labels = new Map(initial.map((l) => [l.name, l]));
  const calls: string[] = [];
  const guard = (op: string, l: GitHubLabel): void => {
    calls.push(`${op} ${l.name}`);
    if (l.name === failOn) throw new AgentError('GITHUB_REQUEST', `${op} ${l.name}: 403 Resource not accessible`);
  };
  return {
    owner: 'acme',
    repo: 'widgets',
    labels,
    calls,
    listLabels: async () => [...labels.values()],
    createLabel: async (l) => {
      guard('create', l);
      labels.set(l.name, l);
      return l;
    },
    updateLabel: async (l) => {
      guard('update', l);
      labels.set(l.name, l);
      return l;
    },
  };
}

const desired = [
  { name: 'docs:ready', color: 'a2eeef', description: 'Ready' },
  { name: 'docs:done', color: '0e8a16', description: 'Done' },
  { name: 'docs:blocked', color: 'd93f0b', description: 'Blocked' },
];

test('GitHub catalog: creates and updates through the port; one failing label does not stop the others', async () => {
  const port = fakePort(
    [
      { name: 'docs:done', color: '000000', description: 'Done' },
      { name: 'docs:blocked', color: 'D93F0B', description: 'Blocked' },
    ],
    'docs:ready',
  );
  let connects = 0;
  const catalog = createGitHubLabelCatalog(async () => {
    connects++;
    return port;
  }, 'acme/widgets');
  assert.equal(connects, 0, 'building the catalog does not connect');
  const results = await syncLabels(catalog, desired);
  assert.deepEqual(
    results.map((r) => [r.name, r.outcome]),
    [
      ['docs:ready', 'failed'],
      ['docs:done', 'updated'],
      ['docs:blocked', 'unchanged'],
    ],
  );
  assert.match(results[0]?.error ?? '', /403/);
  assert.deepEqual(results[1]?.previous, { color: '000000', description: 'Done' });
  assert.deepEqual(port.calls, ['create docs:ready', 'update docs:done']);
  assert.equal(port.labels.get('docs:done')?.color, '0e8a16');
});

test('GitHub catalog: a dry run lists but never writes', async () => {
  const port = fakePort([]);
  const results = await syncLabels(
    createGitHubLabelCatalog(async () => port, 'acme/widgets'),
    desired,
    {
      dryRun: true,
    },
  );
  assert.ok(results.every((r) => r.outcome === 'created'));
  assert.deepEqual(port.calls, []);
});

test("Octokit adapter: list (paginated), create and update a repository's labels", async () => {
  const labels = new Map<string, { name: string; color: string; description: string | null }>([
    ['bug', { name: 'bug', color: 'D73A4A', description: null }],
    ['docs:done', { name: 'docs:done', color: '0e8a16', description: 'Done' }],
  ]);
  const log: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      log.push(`${req.method} ${decodeURIComponent(url.pathname)}`);
      const body = text ? (JSON.parse(text) as { name?: string; color: string; description: string }) : undefined;
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && url.pathname === '/repos/acme/widgets/labels') {
        const page = Number(url.searchParams.get('page') ?? 1);
        const all = [...labels.values()];
        if (page === 1)
          res.setHeader('link', `<http://${req.headers.host}/repos/acme/widgets/labels?per_page=1&page=2>; rel="next"`);
        return res.end(JSON.stringify(all.slice(page - 1, page)));
      }
      if (req.method === 'POST' && url.pathname === '/repos/acme/widgets/labels' && body?.name) {
        labels.set(body.name, { name: body.name, color: body.color, description: body.description });
        res.statusCode = 201;
        return res.end(JSON.stringify(labels.get(body.name)));
      }
      const m = /^\/repos\/acme\/widgets\/labels\/(.+)$/.exec(decodeURIComponent(url.pathname));
      if (req.method === 'PATCH' && m && labels.has(m[1]!) && body) {
        labels.set(m[1]!, { name: m[1]!, color: body.color, description: body.description });
        return res.end(JSON.stringify(labels.get(m[1]!)));
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ message: 'Not Found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const client = createGitHubClient({
      token: 'ghp_labelsFAKE_0123456789',
      owner: 'acme',
      repo: 'widgets',
      baseUrl: `http://127.0.0.1:${port}`,
      perPage: 1,
    });
    assert.deepEqual(await client.listLabels(), [
      { name: 'bug', color: 'd73a4a', description: '' },
      { name: 'docs:done', color: '0e8a16', description: 'Done' },
    ]);
    await client.createLabel({ name: 'docs:ready', color: 'a2eeef', description: 'Ready' });
    await client.updateLabel({ name: 'docs:done', color: '00ff00', description: 'Finished' });
    assert.deepEqual(labels.get('docs:ready'), { name: 'docs:ready', color: 'a2eeef', description: 'Ready' });
    assert.deepEqual(labels.get('docs:done'), { name: 'docs:done', color: '00ff00', description: 'Finished' });
    assert.ok(log.includes('PATCH /repos/acme/widgets/labels/docs:done'), log.join('\n'));
    await assert.rejects(client.updateLabel({ name: 'nope', color: '000000', description: '' }), (e: unknown) =>
      AgentError.isInstance(e),
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
