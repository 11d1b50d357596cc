/**
 * Which of an npm or yarn classic workspace's packages have a real test script. `npm
 * init -w packages/x` writes npm's placeholder (`echo "Error: no test specified" && exit
 * 1`), which `npm test --workspaces --if-present` runs and which fails naming no test: a
 * fixed branch would still fail with nothing named, and the validation could never pass.
 * Such workspaces are left out by listing the others (`npm test -w a -w b`, which also
 * goes on past a failing workspace, measured with npm 11).
 *
 * The patterns are expanded the simple way, one directory level per `*` segment; a `**`
 * or a `!` negation gives up (undefined), and the caller keeps `--workspaces`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export const NPM_PLACEHOLDER_TEST = 'no test specified';

export interface WorkspaceScripts {
  /** Workspace directories (relative, sorted) whose test script is a real one. */
  readonly tested: readonly string[];
  /** Workspace directories whose test script is npm's placeholder. */
  readonly placeholders: readonly string[];
}

/** The workspaces' test scripts, or undefined when a pattern is beyond the simple expansion. */
export async function workspaceScripts(
  root: string,
  patterns: readonly string[],
): Promise<WorkspaceScripts | undefined> {
  if (patterns.some((p) => p.includes('**') || p.startsWith('!'))) return undefined;
  const dirs = new Set<string>();
  for (const pattern of patterns) for (const dir of await expand(root, pattern)) dirs.add(dir);
  const tested: string[] = [];
  const placeholders: string[] = [];
  for (const dir of [...dirs].sort()) {
    const test = await testScript(path.join(root, dir, 'package.json'));
    if (test === undefined) continue;
    (test.includes(NPM_PLACEHOLDER_TEST) ? placeholders : tested).push(dir);
  }
  return { tested, placeholders };
}

/** package.json's `workspaces` patterns (npm's array, or yarn's `{ packages: [...] }`). PURE. */
export function workspacePatterns(packageJson: string | undefined): string[] {
  if (packageJson === undefined) return [];
  try {
    const value = (JSON.parse(packageJson) as { workspaces?: unknown }).workspaces;
    const list = Array.isArray(value)
      ? value
      : typeof value === 'object' && value !== null
        ? (value as { packages?: unknown }).packages
        : undefined;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && p.trim() !== '') : [];
  } catch {
    return [];
  }
}

async function expand(root: string, pattern: string): Promise<string[]> {
  let found = [''];
  for (const segment of path.posix.normalize(pattern.replace(/\/+$/, '')).split('/')) {
    if (segment === '.' || segment === '') continue;
    if (!segment.includes('*')) {
      found = found.map((d) => path.posix.join(d, segment));
      continue;
    }
    const re = new RegExp(`^${segment.split('*').map(escape).join('[^/]*')}$`);
    const next: string[] = [];
    for (const d of found) {
      const entries = await readdir(path.join(root, d), { withFileTypes: true }).catch(() => []);
      for (const e of entries)
        if (e.isDirectory() && e.name !== 'node_modules' && re.test(e.name)) next.push(path.posix.join(d, e.name));
    }
    found = next;
  }
  return found.filter((d) => d !== '');
}

function escape(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

async function testScript(file: string): Promise<string | undefined> {
  try {
    const scripts = (JSON.parse(await readFile(file, 'utf8')) as { scripts?: Record<string, unknown> }).scripts;
    const test = scripts?.['test'];
    return typeof test === 'string' ? test : undefined;
  } catch {
    return undefined;
  }
}
