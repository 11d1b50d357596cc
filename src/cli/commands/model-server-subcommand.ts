/**
 * `issue-agent model-server`: the offline Messages-API server (src/dev/model-server/) as a
 * command of the installed package, so a stranger can try the agent with no key and no
 * clone of this project (ANTHROPIC_BASE_URL=<the printed URL>).
 */
import { serveModelServer } from '../../dev/model-server/model-server-command.js';
import { commandFlags } from '../flags/command-specs.js';

export async function modelServerCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('model-server', argv);
  if (flags === undefined) return 0;
  const text = (name: string): string | undefined => {
    const value = flags[name];
    return typeof value === 'string' ? value : undefined;
  };
  return serveModelServer({
    ...(text('session') === undefined ? {} : { session: text('session') }),
    ...(flags['record'] === true ? { record: true } : {}),
    ...(text('upstream') === undefined ? {} : { upstream: text('upstream') }),
    ...(text('out') === undefined ? {} : { out: text('out') }),
    ...(text('port') === undefined ? {} : { port: text('port') }),
  });
}
