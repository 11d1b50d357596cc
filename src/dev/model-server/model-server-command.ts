/**
 * `issue-agent model-server --session FILE [--port N]` (`npm run model-server -- …`) plays
 * a recorded/scripted model session on 127.0.0.1 and prints its URL (use it as
 * ANTHROPIC_BASE_URL). `--record --upstream URL --out FILE` proxies a real endpoint (key
 * from ANTHROPIC_API_KEY, or the client's own header) and writes a session script.
 * The command (src/cli/commands/model-server-subcommand.ts) and this file run directly (`tsx …`) share
 * `serveModelServer`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AgentError, UsageError } from '../../contracts/errors.js';
import { createModelServer, type ModelServerOptions } from './model-server.js';

const MODEL_SERVER_SUMMARY = [
  'Play a session script as a Messages-API-compatible server on 127.0.0.1 and print its URL; point the agent at it',
  'with ANTHROPIC_BASE_URL=<url> (no API key needed). --record proxies --upstream and writes what happened to --out.',
].join('\n');

const HELP = `Usage:
  issue-agent model-server --session FILE [--port N]
  issue-agent model-server --record --upstream URL --out FILE [--port N]

${MODEL_SERVER_SUMMARY}

  --session FILE   session script (JSON) to play
  --record         proxy to --upstream and write what happened to --out
  --upstream URL   real Messages API endpoint (e.g. https://api.anthropic.com)
  --out FILE       where the recorded session script is written
  --port N         port to listen on (default: a random free port)
  --help           show this help
`;

export interface ModelServerFlags {
  readonly session?: string;
  readonly record?: boolean;
  readonly upstream?: string;
  readonly out?: string;
  readonly port?: string;
}

/** Checks the flags, serves until SIGINT/SIGTERM, then resolves 0. Bad flags throw UsageError. */
export async function serveModelServer(flags: ModelServerFlags, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer 0-65535, got ${flags.port}`, '--port');
  let options: ModelServerOptions;
  if (flags.record) {
    if (flags.session) throw new UsageError('--record and --session are mutually exclusive', '--session');
    if (!flags.upstream) throw new UsageError('--record needs --upstream URL', '--upstream');
    if (!flags.out) throw new UsageError('--record needs --out FILE', '--out');
    const apiKey = env['ANTHROPIC_API_KEY'];
    options = { port, record: { upstream: flags.upstream, out: resolve(flags.out), ...(apiKey ? { apiKey } : {}) } };
  } else {
    if (!flags.session) throw new UsageError('--session FILE is required (or --record)', '--session');
    options = { port, session: resolve(flags.session) };
  }
  const server = await createModelServer(options);
  process.stdout.write(`${server.url}\n`);
  return new Promise((done) => {
    const stop = (): void => void server.close().then(() => done(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        session: { type: 'string' },
        record: { type: 'boolean' },
        upstream: { type: 'string' },
        out: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  return serveModelServer(values);
}

// Run directly (`tsx src/dev/model-server/model-server-command.ts`), not when imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      const usage = AgentError.isInstance(error) && error.code === 'USAGE';
      const text = AgentError.isInstance(error) ? (usage ? error.message : error.describe()) : (error as Error).message;
      console.error(`model-server: ${text}${usage ? ' (see --help)' : ''}`);
      process.exit(usage ? 2 : 1);
    },
  );
}
