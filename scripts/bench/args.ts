/**
 * The bench's command line: its help text and its flags. The help lists the phases
 * the registry holds (registry.ts), so a new phase shows up in it without an edit here.
 */

export interface BenchOptions {
  readonly help: boolean;
  /** Print one JSON object on stdout (progress on stderr). */
  readonly json: boolean;
  readonly quick: boolean;
  /** --only a,b: the phases to run (undefined: all). */
  readonly only: ReadonlySet<string> | undefined;
  /** Start the dev server with journal_mode=WAL and synchronous=NORMAL. */
  readonly wal: boolean;
  /** --profile DIR: CPU profiles of the run workers (stopped with SIGTERM so that V8 writes them). */
  readonly profileDir: string | undefined;
  /** Leave out the dev server's dispatch settings. */
  readonly serverDefaults: boolean;
}

export function helpText(phaseNames: readonly string[]): string {
  return `Usage: npm run bench [-- --json] [-- --quick]

Measures the cost of durability on a private Temporal dev server (SQLite, free ports)
with the offline model server. Prints a table with targets and PASS/MISS.

  --json    print one JSON object on stdout (progress goes to stderr)
  --quick   a shorter run (fewer repetitions and steps; R stays 50)
  --only P  run only these phases (comma-separated: ${phaseNames.join(',')})
  --wal     start the dev server with --sqlite-pragma journal_mode=WAL and synchronous=NORMAL
  --profile DIR  write a V8 CPU profile of each run worker into DIR (workers then stop gracefully)
  --server-defaults  leave out the dev server's dispatch settings (DISPATCH_DYNAMIC_CONFIG), to compare
  --help    this text
`;
}

/** The value after a flag (undefined if the flag is absent or last). */
function valueOf(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  return index >= 0 ? argv[index + 1] : undefined;
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  return {
    help: argv.includes('--help'),
    json: argv.includes('--json'),
    quick: argv.includes('--quick'),
    only: argv.includes('--only') ? new Set((valueOf(argv, '--only') ?? '').split(',')) : undefined,
    wal: argv.includes('--wal'),
    profileDir: valueOf(argv, '--profile'),
    serverDefaults: argv.includes('--server-defaults'),
  };
}
