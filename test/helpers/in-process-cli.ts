/**
 * Runs a client command in the test's own process (no child, no tsx start-up): its exit
 * code and what it printed on stdout; and the Workflow ID the control commands find for
 * an issue of a repository when visibility has no record of it (the default agent's ID).
 */
import { repoIdentity, workflowIdFor } from '../../src/host/repo-identity.js';

export async function captured(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    return { code: await fn(), out };
  } finally {
    process.stdout.write = write;
  }
}

export const findableId = async (repoPath: string, issue: number): Promise<string> =>
  workflowIdFor((await repoIdentity(repoPath)).id, 'issue-agent', issue);
