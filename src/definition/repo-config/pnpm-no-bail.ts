/**
 * A pnpm workspace whose root test script runs the packages' tests recursively (`pnpm -r
 * test`, `pnpm --filter './packages/**' run test`): pnpm stops launching packages after the
 * first one fails (`ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL`), so a package failing for an
 * unrelated reason hides the issue's own failing tests. The detected command is the same
 * script with `--no-bail`, so every package runs to the end. PURE.
 *
 * Only a script that is one pnpm command: one holding shell operators (`pnpm -r build &&
 * pnpm -r test`) or already choosing `--bail`/`--no-bail` is left to `pnpm test`.
 */

const RECURSIVE = /^pnpm\s+(-r|--recursive|--filter|-F)(\s|=)/;
const SHELL = /[;&|<>`$()\n]/;

/** `pnpm --no-bail <the script's arguments>`, or undefined when the script is not one recursive pnpm run. */
export function pnpmNoBail(script: string): string | undefined {
  const s = script.trim();
  if (!RECURSIVE.test(s) || SHELL.test(s) || /--(no-)?bail\b/.test(s)) return undefined;
  return `pnpm --no-bail ${s.slice('pnpm'.length).trim()}`;
}
