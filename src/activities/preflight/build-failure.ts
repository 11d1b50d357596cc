/**
 * Whether a test command's output says the build failed before any test ran (a compile
 * error of the code at the base): then no test can be named, and the fix is in the
 * project's code or build files, not in which command runs the tests. Read from the
 * lines the preflight shows; a sign in them is enough, as they are the ones a user reads.
 */
const BUILD_FAILED: readonly RegExp[] = [
  /COMPILATION ERROR|Compilation failure/, // Maven's compiler plugin
  /^\S+\.java:\d+: error: /m, // javac
  /^error: could not compile `/m, // cargo
  /\[build failed\]|^# \S+\n.*\.go:\d+:\d+: /m, // go test
  /error TS\d+: /, // tsc
  /Execution failed for task ':\S*compile/i, // Gradle
];

export function saysBuildFailed(lines: readonly string[]): boolean {
  const text = lines.join('\n');
  return BUILD_FAILED.some((sign) => sign.test(text));
}
