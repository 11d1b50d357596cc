/**
 * An offline, Messages-API-compatible HTTP server for tests and the demo: it plays a
 * session script (or, in record mode, proxies a real endpoint and writes one).
 * The SDK reaches it through ANTHROPIC_BASE_URL; auth headers are ignored. Its usage
 * bills the prompt as the API would, from the request's `cache_control` breakpoints and
 * the prefixes it has seen (prompt-cache.ts), after the API's tool-result clearing when the
 * request asks for it (context-editing.ts); a rule's own `usage` wins (recorded sessions).
 *
 *   POST /v1/messages   non-streaming Messages API
 *   GET  /_stats        ServerStats
 *   POST /_reset        clears stats, `times` counters and the prompt cache
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyContextEditing } from './context-editing.js';
import { PromptCache, type PromptCacheOptions } from './prompt-cache.js';
import { breakpointCount, promptSegments } from './request-segments.js';
import { viewRequest } from './request-view.js';
import { errorBody, RulePlayer } from './rule-player.js';
import { SessionRecorder } from './session-recorder.js';
import { loadSessionScript, parseSessionScript, type SessionScript } from './session-script.js';

export interface ServerStats {
  requests: number;
  byRule: Record<string, number>;
  unmatched: number;
  log: Array<{ rule: string | null; turn: number; status: number }>;
}

export interface RecordOptions {
  readonly upstream: string;
  /** Sent upstream as x-api-key; when absent the client's own auth headers are forwarded. */
  readonly apiKey?: string;
  readonly out: string;
  readonly name?: string;
}

export interface ModelServerOptions {
  /** A script object or the path of a JSON script file (play mode). */
  readonly session?: SessionScript | string;
  readonly record?: RecordOptions;
  /** Default 0: a random free port. */
  readonly port?: number;
  readonly host?: string;
  /** The simulated prompt cache's lifetime, minimum length and clock (play mode). */
  readonly promptCache?: PromptCacheOptions;
}

/** The API refuses a request with more `cache_control` blocks than this. */
export const MAX_CACHE_BREAKPOINTS = 4;

export interface ModelServer {
  readonly url: string;
  readonly port: number;
  stats(): ServerStats;
  close(): Promise<void>;
}

const emptyStats = (): ServerStats => ({ requests: 0, byRule: {}, unmatched: 0, log: [] });

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_offline_${Date.now()}`, ...headers });
  res.end(text);
}

async function proxy(
  record: RecordOptions,
  req: IncomingMessage,
  raw: string,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of ['anthropic-version', 'anthropic-beta']) {
    const v = req.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  if (record.apiKey) headers['x-api-key'] = record.apiKey;
  else {
    for (const name of ['x-api-key', 'authorization']) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
  }
  const response = await fetch(`${record.upstream.replace(/\/$/, '')}/v1/messages`, {
    method: 'POST',
    headers,
    body: raw,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = errorBody('api_error', text.slice(0, 500));
  }
  return { status: response.status, body, headers: response.headers };
}

export async function createModelServer(options: ModelServerOptions): Promise<ModelServer> {
  if (!options.session === !options.record)
    throw new Error('createModelServer needs exactly one of `session` or `record`');
  const script =
    options.session === undefined
      ? undefined
      : typeof options.session === 'string'
        ? loadSessionScript(options.session)
        : parseSessionScript(options.session);
  const player = script ? new RulePlayer(script) : undefined;
  const cache = new PromptCache(options.promptCache);
  const recorder = options.record
    ? new SessionRecorder(options.record.out, options.record.name ?? 'recorded')
    : undefined;
  let stats = emptyStats();
  const timers = new Set<NodeJS.Timeout>();
  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  async function handleMessages(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      send(res, 400, errorBody('invalid_request_error', 'request body is not JSON'));
      return;
    }
    const view = viewRequest(body);
    stats.requests += 1;
    if (recorder && options.record) {
      const answer = await proxy(options.record, req, raw).catch((error: Error) => ({
        status: 502,
        body: errorBody('api_error', `upstream unreachable: ${error.message}`),
        headers: new Headers(),
      }));
      recorder.record(view, answer.status, answer.body, answer.headers);
      stats.log.push({ rule: `rec-${stats.requests}`, turn: view.turn, status: answer.status });
      const retryAfter = answer.headers.get('retry-after');
      send(res, answer.status, answer.body, retryAfter ? { 'retry-after': retryAfter } : {});
      return;
    }
    // What the model sees: the API's own context editing, if asked for, applies first.
    const segments = promptSegments(applyContextEditing(body));
    const breakpoints = breakpointCount(segments);
    if (breakpoints > MAX_CACHE_BREAKPOINTS) {
      stats.log.push({ rule: null, turn: view.turn, status: 400 });
      const message = `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
      send(res, 400, errorBody('invalid_request_error', message));
      return;
    }
    const plan = player!.plan(view, () => cache.account(segments));
    if (plan.rule === null) stats.unmatched += 1;
    else stats.byRule[plan.rule] = (stats.byRule[plan.rule] ?? 0) + 1;
    stats.log.push({ rule: plan.rule, turn: view.turn, status: plan.reset ? 0 : plan.status });
    if (plan.delayMs > 0) await delay(plan.delayMs);
    if (plan.reset) {
      req.socket.destroy();
      return;
    }
    if (plan.rawBody !== undefined) {
      res.writeHead(plan.status, { 'content-type': 'application/json', ...plan.headers });
      res.end(plan.rawBody);
      return;
    }
    send(res, plan.status, plan.body, plan.headers);
  }

  const server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    const route = `${req.method} ${url}`;
    const done = (p: Promise<void>): void => {
      p.catch((error: Error) => {
        if (!res.headersSent) send(res, 500, errorBody('api_error', `model server failure: ${error.message}`));
      });
    };
    if (route === 'POST /v1/messages') return done(handleMessages(req, res));
    if (route === 'GET /_stats') return send(res, 200, stats);
    if (route === 'POST /_reset') {
      stats = emptyStats();
      player?.reset();
      cache.clear();
      return send(res, 200, { ok: true });
    }
    send(res, 404, errorBody('not_found_error', `no route ${route}`));
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    stats: () => structuredClone(stats),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
