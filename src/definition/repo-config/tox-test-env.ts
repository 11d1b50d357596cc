/**
 * A tox project's test env, read from tox.ini `[testenv]`: its `deps` (requirement lines,
 * `-r`/`-c` files) and the pytest line of its `commands`. tox itself is not run: it makes
 * its own envs with the network (the sandbox is offline), so the deps go into the run's
 * venv and the pytest line becomes the test command (`{posargs:tests}` → `tests`,
 * `{posargs}` → nothing, `{toxinidir}` → `.`). A line with a factor (`py311: pytest`),
 * another substitution or a pip option (`-e .`) is left out and reported; noxfile.py sessions are Python code and are
 * not read at all.
 */

export interface ToxTestEnv {
  /** Requirement strings from `deps`. */
  readonly requirements: readonly string[];
  /** Worktree-relative files `deps` names with `-r` (requirements) and `-c` (constraints). */
  readonly requirementFiles: readonly string[];
  readonly constraintFiles: readonly string[];
  /** `deps` lines not taken (factor-conditional, other substitutions), as written. */
  readonly skipped: readonly string[];
  /** The pytest command of `commands`, plain, and as written. */
  readonly command?: { readonly command: string; readonly written: string };
}

/** The logical lines of one key of an INI section (continuation lines indented), comments dropped. */
function iniValue(section: string, key: string): string[] | undefined {
  const lines = section.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^${key}\\s*=`).test(l));
  if (start < 0) return undefined;
  const first = (lines[start] ?? '').replace(new RegExp(`^${key}\\s*=`), '');
  const rest: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s/.test(line) && line.trim() !== '') break;
    rest.push(line);
  }
  return [first, ...rest].map((l) => l.replace(/(^|\s)[#;].*$/, '').trim()).filter((l) => l !== '' && l !== '\\');
}

/** The `[testenv]` section's body (up to the next header). */
function testenvSection(toxIni: string): string | undefined {
  const match = /^\[testenv\][ \t]*$/m.exec(toxIni);
  if (!match) return undefined;
  const body = toxIni.slice(match.index + match[0].length);
  const next = /^\[/m.exec(body);
  return next ? body.slice(0, next.index) : body;
}

const plain = (line: string): string | undefined => {
  const out = line
    .replace(/\{posargs:([^{}]*)\}/g, '$1')
    .replace(/\{posargs\}/g, '')
    .replace(/\{toxinidir\}\/?/g, './')
    .replace(/\s+/g, ' ')
    .trim();
  return /[{}]/.test(out) || out === '' ? undefined : out;
};

const PYTEST_COMMAND = /^(pytest|py\.test|python3? -m pytest|coverage run (-m|--module) pytest)(\s|$)/;

/** The test env of a tox.ini text; undefined without `[testenv]`. */
export function toxTestEnv(toxIni: string): ToxTestEnv | undefined {
  const section = testenvSection(toxIni);
  if (section === undefined) return undefined;
  const requirements: string[] = [];
  const requirementFiles: string[] = [];
  const constraintFiles: string[] = [];
  const skipped: string[] = [];
  for (const line of iniValue(section, 'deps') ?? []) {
    const text = plain(line);
    const file = text === undefined ? undefined : /^-([rc])\s*(\S+)$/.exec(text);
    if (file) (file[1] === 'r' ? requirementFiles : constraintFiles).push(file[2]?.replace(/^\.\//, '') ?? '');
    // A factor-conditional line, another substitution, or a pip option (`-e .`) is not taken.
    else if (text === undefined || /^[\w.,-]+\s*:/.test(line) || text.startsWith('-')) skipped.push(line);
    else requirements.push(text);
  }
  const written = (iniValue(section, 'commands') ?? []).find((l) => PYTEST_COMMAND.test(plain(l) ?? ''));
  const command = written === undefined ? undefined : plain(written);
  return {
    requirements,
    requirementFiles,
    constraintFiles,
    skipped,
    ...(command === undefined || written === undefined ? {} : { command: { command, written } }),
  };
}
