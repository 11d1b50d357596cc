/**
 * `npm run chaos [-- --short] [-- --seed N] [-- --json]`: fault injection over real runs
 * (see scripts/chaos/run-chaos.ts): random worker SIGKILLs, dev-server stop/start on
 * SQLite, model faults (429 + retry-after, 529, 500, resets, slow and malformed answers).
 * Exits 0 when every run ended completed or failed with a reason, with no duplicate
 * boundary effect and no lost StepContext.
 */
import { FULL_CHAOS, runChaos, SHORT_CHAOS } from './chaos/run-chaos.js';

const HELP = `Usage: npm run chaos [-- --short] [-- --seed N] [-- --json]

Runs several demo issues on a private Temporal dev server (SQLite) while killing
workers, restarting the server and injecting model faults; then checks that every
run ended with a stated reason, boundary effects happened once, and StepContext survived.

  --short    the short form the test suite runs (3 runs, 3 kills, 1 restart)
  --seed N   replay a chaos schedule
  --json     print the report as JSON on stdout
`;

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    process.stdout.write(HELP);
    return 0;
  }
  const seedIndex = argv.indexOf('--seed');
  const seed = seedIndex >= 0 ? Number(argv[seedIndex + 1]) : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) {
    process.stderr.write('--seed expects an integer\n');
    return 2;
  }
  const json = argv.includes('--json');
  const base = argv.includes('--short') ? SHORT_CHAOS : FULL_CHAOS;
  const out = json ? process.stderr : process.stdout;
  const report = await runChaos({ ...base, seed, log: (line) => out.write(`${line}\n`) });
  if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    for (const run of report.runs) {
      out.write(
        `  ${run.workflowId}: ${run.outcome}${run.code ? ` ${run.code}` : ''} — ${run.reason} [merges ${run.mergeCommits}, comments ${run.comments}, issue ${run.issueState}, plan kept ${run.planKept}]\n`,
      );
    }
    for (const problem of report.problems) out.write(`  PROBLEM: ${problem}\n`);
    out.write(`${report.summary} (${Math.round(report.durationMs / 1000)} s, seed ${report.seed})\n`);
  }
  return report.problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`chaos failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
