/**
 * Problems: what the loader reports about an agent definition. Each names the file,
 * the JSON pointer inside it, the rule that was broken and what was expected, so a
 * user can fix every problem from one report.
 */

export const Severity = { Error: 'error', Warning: 'warning' } as const;
export type Severity = (typeof Severity)[keyof typeof Severity];

export interface Problem {
  /** Stable code tests and tools branch on, e.g. `UNKNOWN_TRANSITION_TARGET`. */
  readonly code: string;
  readonly severity: Severity;
  /** Path relative to the agent directory, e.g. `steps_registry.json`. */
  readonly file: string;
  /** JSON pointer into `file` (`''` for the whole file). */
  readonly pointer: string;
  /** Short name of the rule, e.g. `transition-targets-exist`. */
  readonly rule: string;
  readonly expected: string;
  readonly message: string;
}

export interface ProblemInput {
  readonly code: string;
  readonly file: string;
  readonly pointer: string;
  readonly rule: string;
  readonly expected: string;
  readonly message: string;
  readonly severity?: Severity;
}

export function problem(input: ProblemInput): Problem {
  return { severity: Severity.Error, ...input };
}

export function warning(input: Omit<ProblemInput, 'severity'>): Problem {
  return { ...input, severity: Severity.Warning };
}

/** Escapes one JSON pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a JSON pointer from raw segments: `pointer('steps', 'a/b')` → `/steps/a~1b`. */
export function pointer(...segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${escapePointerSegment(String(s))}`).join('');
}

/** One line per problem: `file#pointer: CODE message (expected ...)`. */
export function formatProblem(p: Problem): string {
  const expected = p.expected ? ` (expected ${p.expected})` : '';
  return `${p.file}#${p.pointer}: ${p.code} ${p.message}${expected}`;
}

export function isError(p: Problem): boolean {
  return p.severity === Severity.Error;
}
