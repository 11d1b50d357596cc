/**
 * Failures that retrying with the model cannot fix: the command is not installed
 * (exit 127), not executable (126) or lacks permissions. Reported so the completion loop
 * stops instead of burning iterations (upstream behaviour §4.2). PURE.
 */
export function unrecoverableReason(result: {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}): string | undefined {
  if (result.exitCode === 127) return 'command not found; install it or fix the validator command';
  if (result.exitCode === 126) return 'command not executable; fix its permissions or the validator command';
  if (/Permission denied|EACCES/.test(`${result.stderr}\n${result.stdout}`))
    return 'permission denied; the worker cannot run this command or access its files';
  return undefined;
}
