/**
 * Progress lines of the bench. With --json, stdout carries only the result object, so
 * progress goes to stderr; otherwise it goes to stdout ahead of the table.
 */
let toStderr = false;

/** --json: progress to stderr from now on. */
export function setJsonOutput(json: boolean): void {
  toStderr = json;
}

export function note(message: string): void {
  (toStderr ? process.stderr : process.stdout).write(`${message}\n`);
}
