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
  if (rootTest === undefined)
    return {
      command: NPM_WORKSPACES_TEST,
      why: 'package.json workspaces, no root test script: every workspace with a test script, to the end',
    };
  if (pm === 'yarn' && YARN_WORKSPACES_RUN.test(rootTest.trim()))
    return {
      command: NPM_WORKSPACES_TEST,
      why:
        `package.json workspaces; the root test script "${rootTest}" stops at the first failing workspace: ` +
        'npm runs the same workspaces to the end',
    };
  return undefined;
}

/** True when package.json's `workspaces` lists at least one pattern (npm's array or yarn's object form). */
export function declaresWorkspaces(packageJson: string | undefined): boolean {
  if (packageJson === undefined) return false;
  try {
    const value = (JSON.parse(packageJson) as { workspaces?: unknown }).workspaces;
    const list = Array.isArray(value)
      ? value
      : typeof value === 'object' && value !== null
        ? (value as { packages?: unknown }).packages
        : undefined;
    return Array.isArray(list) && list.length > 0;
  } catch {
    return false;
  }
}
