/**
 * One line of the worker's log, as a person reads it on stderr (the worker, or the run a
 * `start-run --follow` serves in its own process): the time, the level, the message and
 * the few facts that place it (workflow, activity, the error's code and message), never
 * the SDK's whole metadata object. `LOG_FORMAT=json` keeps every field for log shippers.
 * A task token (a credential to complete someone else's activity) is never printed, and
 * empty values are dropped. A message or an error may quote the model or the tested code
 * (an activity's failure), and the worker's stderr is someone's terminal: the text line
 * shows control characters as visible escapes (terminalText), the JSON line its message
 * so and its fields as `\uXXXX` escapes (terminalJson: the same values, still JSON).
 * PURE; the caller redacts secrets.
 */
import { terminalJson, terminalText } from '../host/terminal-text.js';

export const LogFormat = { Text: 'text', Json: 'json' } as const;
export type LogFormat = (typeof LogFormat)[keyof typeof LogFormat];

const NEVER_PRINTED = new Set(['taskToken']);
const PLACING_KEYS = ['workflowId', 'activityType', 'attempt'] as const;

export function logFormatOf(env: NodeJS.ProcessEnv): LogFormat {
  return env['LOG_FORMAT']?.toLowerCase() === 'json' ? LogFormat.Json : LogFormat.Text;
}

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

function errorText(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { type?: unknown; name?: unknown; message?: unknown };
  const code = typeof e.type === 'string' ? e.type : typeof e.name === 'string' ? e.name : undefined;
  const message = typeof e.message === 'string' ? e.message : undefined;
  if (code === undefined && message === undefined) return undefined;
  return [code, message].filter((x) => x !== undefined).join(': ');
}

export function formatLogLine(
  entry: { readonly time: string; readonly level: string; readonly message: string; readonly meta?: object },
  format: LogFormat,
): string {
  const meta = Object.fromEntries(
    Object.entries(entry.meta ?? {}).filter(([k, v]) => !NEVER_PRINTED.has(k) && !isEmpty(v)),
  );
  switch (format) {
    case LogFormat.Json:
      return `${entry.time} [${entry.level}] ${terminalText(entry.message)}${Object.keys(meta).length === 0 ? '' : ` ${terminalJson(meta)}`}`;
    case LogFormat.Text: {
      const facts = PLACING_KEYS.filter((k) => !isEmpty(meta[k])).map((k) => `${k} ${String(meta[k])}`);
      const error = errorText(meta['error']);
      if (error !== undefined) facts.push(error);
      return terminalText(
        `${entry.time} [${entry.level}] ${entry.message}${facts.length === 0 ? '' : ` (${facts.join('; ')})`}`,
      );
    }
  }
}

/**
 * The host-queue worker serves activities only, the demo's reader (dev/demo-reader.ts)
 * workflows only; the SDK's warnings about that are noise.
 */
const EXPECTED_WARNINGS = [
  'No workflows registered, not polling for workflow tasks',
  'No activities registered, not polling for activity tasks',
];

/** The SDK's line when a workflow ends failed (@temporalio/workflow's lifecycle logging). */
const WORKFLOW_FAILED = 'Workflow failed';

/** The SDK's line when an activity attempt throws (@temporalio/worker's activity logging). */
const ACTIVITY_FAILED = 'Activity failed';

/**
 * A runtime log line nobody needs on stderr. `runEndsReportedByCaller`: the process
 * reports each run's end itself (start-run serving its run), so the SDK's `Workflow
 * failed` warning, with the error's stack, would only repeat it after the outcome; so
 * would its `Activity failed` for a failure no retry follows (the run's outcome names
 * it, with its code once, not `CODE: CODE: …`). A retried attempt's failure still shows.
 */
export function isNoise(
  message: string,
  options: { readonly runEndsReportedByCaller: boolean },
  meta?: Readonly<Record<string, unknown>>,
): boolean {
  if (EXPECTED_WARNINGS.some((w) => message.startsWith(w))) return true;
  if (!options.runEndsReportedByCaller) return false;
  return message === WORKFLOW_FAILED || (message === ACTIVITY_FAILED && notRetried(meta?.['error']));
}

function notRetried(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { nonRetryable?: unknown }).nonRetryable === true;
}
