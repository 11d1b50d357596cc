/**
 * `npm run model-server -- --session FILE [--port N]` plays a recorded/scripted model
 * session on 127.0.0.1 and prints its URL (use it as ANTHROPIC_BASE_URL).
 * `--record --upstream URL --out FILE` proxies a real endpoint (key from
 * ANTHROPIC_API_KEY, or the client's own header) and writes a session script.
 */
import { parseArgs } from 'node:util';
import { AgentError } from '../../contracts/errors.js';
import { createModelServer, type ModelServerOptions } from './model-server.js';

const HELP = `Usage:
  tsx src/dev/model-server/model-server-command.ts --session FILE [--port N]
  tsx src/dev/model-server/model-server-command.ts --record --upstream URL --out FILE [--port N]

Plays a session script as a Messages-API-compatible server on 127.0.0.1 and prints its URL.
Point the agent at it with ANTHROPIC_BASE_URL=<url> (no API key needed).

  --session FILE   session script (JSON) to play
  --record         proxy to --upstream and write what happened to --out
  --upstream URL   real Messages API endpoint (e.g. https://api.anthropic.com)
  --out FILE       where the recorded session script is written
  --port N         port to listen on (default: a random free port)
  --help           show this help
`;

function usage(message: string): never {
  console.error(`model-server: ${message} (see --help)`);
  process.exit(2);
}

async function main(): Promise<void> {
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
    usage((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    usage(`--port must be an integer 0-65535, got ${values.port}`);
  let options: ModelServerOptions;
  if (values.record) {
    if (values.session) usage('--record and --session are mutually exclusive');
    if (!values.upstream) usage('--record needs --upstream URL');
    if (!values.out) usage('--record needs --out FILE');
    const apiKey = process.env['ANTHROPIC_API_KEY'];
    options = { port, record: { upstream: values.upstream, out: values.out, ...(apiKey ? { apiKey } : {}) } };
  } else {
    if (!values.session) usage('--session FILE is required (or --record)');
    options = { port, session: values.session };
  }
  const server = await createModelServer(options);
  console.log(server.url);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`model-server: ${AgentError.isInstance(error) ? error.describe() : (error as Error).message}`);
  process.exit(1);
});
