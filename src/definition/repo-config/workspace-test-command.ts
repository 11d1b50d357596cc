/**
 * The test command of a JavaScript workspace monorepo (npm or yarn classic `workspaces`
 * in package.json, pnpm's `pnpm-workspace.yaml`), where plain `<pm> test` would run only
 * the root's script, or nothing, or stop at the first failing package. PURE.
 *
 * - pnpm: a root script that is one recursive pnpm run gets `--no-bail` (pnpm-no-bail.ts);
 *   no root script: `pnpm -r --no-bail test` (pnpm skips packages without the script and
 *   leaves the root out).
 * - yarn classic: `yarn workspaces run test` stops at the first failing workspace and has
 *   no flag to go on; npm reads the same `workspaces` field and does go on, so the
 *   workspaces' tests run through npm (`yarn` itself stays on PATH for their scripts).
 * - npm, and yarn classic without a root test script: `npm test --workspaces --if-present`,
 *   which runs every workspace that has a test script, to the end, each one's output after
 *   its `> name@version test` header (measured with npm 11: a failing workspace does not
 *   stop the next one).
 *
 * Yarn berry (`workspaces foreach`) and bun are left to `<pm> test`: not measured here.
 */
import { pnpmNoBail } from './pnpm-no-bail.js';
import type { WorkspaceScripts } from './workspace-scripts.js';

export interface WorkspaceLayout {
  /** The package manager from the lockfile (detect-commands.ts). */
  readonly pm: string;
  /** The root package.json's test script, unless it is npm's placeholder. */
  readonly rootTest?: string;
  /** package.json declares `workspaces` (an array, or yarn's `{ packages: [...] }`). */
  readonly workspaces: boolean;
  readonly pnpmWorkspace: boolean;
  /** Yarn 2+ (a `__metadata:` yarn.lock): not handled here. */
  readonly berry: boolean;
  /** The workspaces' test scripts (workspace-scripts.ts); unset when the patterns were not expanded. */
  readonly scripts?: WorkspaceScripts;
}

export interface WorkspaceTest {
  readonly command: string;
  /** Why, after the lockfile, in the detection's reason line. */
  readonly why: string;
}

export const NPM_WORKSPACES_TEST = 'npm test --workspaces --if-present';

const YARN_WORKSPACES_RUN = /^yarn\s+workspaces\s+run\s+test\s*$/;

export function workspaceTestCommand(layout: WorkspaceLayout): WorkspaceTest | undefined {
  const { pm, rootTest } = layout;
  if (pm === 'pnpm' && layout.pnpmWorkspace) {
    if (rootTest === undefined)
      return {
        command: 'pnpm -r --no-bail test',
        why: 'pnpm-workspace.yaml, no root test script: every package with a test script, a failing one hides no other',
      };
    const noBail = pnpmNoBail(rootTest);
    return noBail === undefined
      ? undefined
      : {
          command: noBail,
          why:
            `pnpm-workspace.yaml; the root test script "${rootTest}" runs the packages recursively: ` +
            '--no-bail, so a failing package hides no other',
        };
  }
  if (!layout.workspaces || layout.berry || (pm !== 'npm' && pm !== 'yarn')) return undefined;
  const every = npmWorkspacesCommand(layout.scripts);
  if (every === undefined) return undefined;
  if (rootTest === undefined)
    return {
      command: every.command,
      why: `package.json workspaces, no root test script: every workspace with a test script, to the end${every.why}`,
    };
  if (pm === 'yarn' && YARN_WORKSPACES_RUN.test(rootTest.trim()))
    return {
      command: every.command,
      why:
        `package.json workspaces; the root test script "${rootTest}" stops at the first failing workspace: ` +
        `npm runs the same workspaces to the end${every.why}`,
    };
  return undefined;
}

/**
 * Every workspace's tests through npm; those with npm's placeholder test script left out by
 * naming the others (the placeholder fails naming no test, so a fixed branch would still
 * fail). Undefined when no workspace has a real test script.
 */
function npmWorkspacesCommand(scripts: WorkspaceScripts | undefined): { command: string; why: string } | undefined {
  if (scripts === undefined || scripts.placeholders.length === 0) return { command: NPM_WORKSPACES_TEST, why: '' };
  if (scripts.tested.length === 0) return undefined;
  const quote = (d: string): string => (/^[\w@./-]+$/.test(d) ? d : `'${d.replace(/'/g, `'\\''`)}'`);
  return {
    command: `npm test ${scripts.tested.map((d) => `-w ${quote(d)}`).join(' ')}`,
    why: `; ${scripts.placeholders.join(', ')} left out (npm's "no test specified" placeholder)`,
  };
}
