/**
 * POSIX shell quoting, the one the harness uses wherever it writes a command line a
 * shell will split (a sandboxed git argv, a step runner's command, PYTEST_ADDOPTS, a
 * hint printed for a person to paste): every argument reaches the program as one
 * literal word, whatever it holds. Plain words stay bare so the line stays readable.
 */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
