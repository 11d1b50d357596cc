// A node:test reporter that prints, after the TAP stream, one line per test that did not
// pass (failed, timed out or cancelled), with its file and the first line of the error.
// CI keeps only the tail of the log; this puts the names where they are read.
export default async function* failureSummary(source) {
  const notPassed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { file, name, details } = event.data;
    const error = details?.error;
    const message = String(error?.cause?.message ?? error?.message ?? '').split('\n')[0];
    notPassed.push(`${file ?? '?'} :: ${name} (${error?.failureType ?? 'failed'}: ${message})`);
  }
  yield `\n# not passed: ${notPassed.length}\n${notPassed.map((line) => `#   ${line}\n`).join('')}`;
}
