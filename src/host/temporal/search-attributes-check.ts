/**
 * Any Temporal server works out of the box: before a command starts a run (and before a
 * worker polls), the namespace's custom search attributes are checked against the ones
 * runs and pipelines set. Missing ones are registered through the operator API; where
 * that is refused (Temporal Cloud, a server with authorization) the error lists exactly
 * the commands to run. Without this, a start fails with the SDK's bare `Failed to start
 * Workflow` and a worker upserting an unknown attribute loops on `BadSearchAttributes`.
 *
 * The dev server we start registers them by flags (ensure-temporal.ts), so there this is
 * one list call.
 */
import { type SearchAttributeType } from '@temporalio/common';
import { AgentError, HostErrorCode } from '../../contracts/errors.js';
import { RUN_SEARCH_ATTRIBUTES } from '../../workflows/run/search-attributes.js';
import { PIPELINE_SEARCH_ATTRIBUTES } from '../../workflows/pipeline/pipeline-search-attributes.js';

/** What this check needs of a connection's operator service (Connection and NativeConnection both have it). */
export interface SearchAttributeOperator {
  listSearchAttributes(request: {
    namespace: string;
  }): Promise<{ customAttributes?: Readonly<Record<string, unknown>> | null }>;
  addSearchAttributes(request: { namespace: string; searchAttributes: Record<string, number> }): Promise<unknown>;
}

export interface RequiredSearchAttribute {
  readonly name: string;
  readonly type: SearchAttributeType;
}

/** Every custom attribute a run, a batch or a pipeline sets (start options and upserts). */
export const REQUIRED_SEARCH_ATTRIBUTES: readonly RequiredSearchAttribute[] = [
  ...RUN_SEARCH_ATTRIBUTES,
  ...PIPELINE_SEARCH_ATTRIBUTES,
];

/** The operator API's IndexedValueType numbers and the `temporal` CLI's type names. */
const INDEXED_TYPE: Readonly<Record<SearchAttributeType, { readonly code: number; readonly cli: string }>> = {
  TEXT: { code: 1, cli: 'Text' },
  KEYWORD: { code: 2, cli: 'Keyword' },
  INT: { code: 3, cli: 'Int' },
  DOUBLE: { code: 4, cli: 'Double' },
  BOOL: { code: 5, cli: 'Bool' },
  DATETIME: { code: 6, cli: 'Datetime' },
  KEYWORD_LIST: { code: 7, cli: 'KeywordList' },
};

const INDEXED_NAMES: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(INDEXED_TYPE).map(([name, { code }]) => [`INDEXED_VALUE_TYPE_${name}`, code]),
);

/** The list call answers enum numbers (or, through some proxies, their names). */
function indexedCode(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return INDEXED_NAMES[value] ?? INDEXED_NAMES[`INDEXED_VALUE_TYPE_${value}`];
  return undefined;
}

function cliTypeOf(code: number | undefined): string {
  return Object.values(INDEXED_TYPE).find((t) => t.code === code)?.cli ?? `type ${String(code)}`;
}

export interface ServerCoordinates {
  readonly address: string;
  readonly namespace: string;
}

/** The exact commands that register `missing` on that server's namespace. */
export function registrationCommands(missing: readonly RequiredSearchAttribute[], at: ServerCoordinates): string[] {
  return missing.map(
    (attr) =>
      `temporal operator search-attribute create --address ${at.address} --namespace ${at.namespace} --name ${attr.name} --type ${INDEXED_TYPE[attr.type].cli}`,
  );
}

/** A gRPC error's status name and detail, for the line that says why registration failed. */
function grpcReason(err: unknown): string {
  const e = err as { code?: unknown; details?: unknown; message?: unknown };
  const names: Record<number, string> = {
    3: 'INVALID_ARGUMENT',
    5: 'NOT_FOUND',
    7: 'PERMISSION_DENIED',
    9: 'FAILED_PRECONDITION',
    12: 'UNIMPLEMENTED',
    14: 'UNAVAILABLE',
    16: 'UNAUTHENTICATED',
  };
  const code = typeof e.code === 'number' ? (names[e.code] ?? `gRPC status ${e.code}`) : undefined;
  const detail = typeof e.details === 'string' && e.details !== '' ? e.details : String(e.message ?? err);
  return code === undefined ? detail : `${code}: ${detail}`;
}

async function customAttributes(operator: SearchAttributeOperator, namespace: string): Promise<Map<string, number>> {
  const { customAttributes: found } = await operator.listSearchAttributes({ namespace });
  const map = new Map<string, number>();
  for (const [name, value] of Object.entries(found ?? {})) map.set(name, indexedCode(value) ?? -1);
  return map;
}

export interface SearchAttributeCheck {
  /** Attributes this call registered (empty when the namespace had them all). */
  readonly registered: readonly string[];
}

/**
 * Registers the missing attributes, or throws SEARCH_ATTRIBUTES_MISSING naming each one
 * with the command that fixes it. An attribute registered with another type cannot be
 * fixed by us (a type never changes): that is named too.
 */
export async function ensureSearchAttributes(
  operator: SearchAttributeOperator,
  at: ServerCoordinates,
  required: readonly RequiredSearchAttribute[] = REQUIRED_SEARCH_ATTRIBUTES,
  options: { settleMs?: number } = {},
): Promise<SearchAttributeCheck> {
  const present = await customAttributes(operator, at.namespace);
  const wrongType = required.filter((a) => present.has(a.name) && present.get(a.name) !== INDEXED_TYPE[a.type].code);
  if (wrongType.length > 0) {
    const list = wrongType
      .map((a) => `${a.name} is ${cliTypeOf(present.get(a.name))}, expected ${INDEXED_TYPE[a.type].cli}`)
      .join('; ');
    throw new AgentError(
      HostErrorCode.SearchAttributesMissing,
      `namespace ${at.namespace} at ${at.address} has search attributes of the wrong type (${list}); a type cannot change: use another namespace (TEMPORAL_NAMESPACE), or remove them and create them again:\n` +
        wrongType
          .flatMap((a) => [
            `  temporal operator search-attribute remove --address ${at.address} --namespace ${at.namespace} --name ${a.name}`,
            `  ${registrationCommands([a], at)[0]}`,
          ])
          .join('\n'),
      { where: 'TEMPORAL_NAMESPACE', expected: 'the search attributes issue-agent sets, with their types' },
    );
  }
  const missing = required.filter((a) => !present.has(a.name));
  if (missing.length === 0) return { registered: [] };
  try {
    await operator.addSearchAttributes({
      namespace: at.namespace,
      searchAttributes: Object.fromEntries(missing.map((a) => [a.name, INDEXED_TYPE[a.type].code])),
    });
  } catch (err) {
    // Another client may have registered them meanwhile: only what is still missing counts.
    const now = await customAttributes(operator, at.namespace).catch(() => present);
    const stillMissing = missing.filter((a) => !now.has(a.name));
    if (stillMissing.length > 0) throw refused(stillMissing, at, err);
    return { registered: [] };
  }
  await settled(operator, at.namespace, missing, options.settleMs ?? 10_000);
  return { registered: missing.map((a) => a.name) };
}

/** A server with several frontends refreshes its namespace cache: wait until the list shows them. */
async function settled(
  operator: SearchAttributeOperator,
  namespace: string,
  added: readonly RequiredSearchAttribute[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await customAttributes(operator, namespace);
    if (added.every((a) => now.has(a.name)) || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function refused(missing: readonly RequiredSearchAttribute[], at: ServerCoordinates, cause: unknown): AgentError {
  return new AgentError(
    HostErrorCode.SearchAttributesMissing,
    `namespace ${at.namespace} at ${at.address} lacks the search attributes ${missing.map((a) => a.name).join(', ')}, and registering them was refused (${grpcReason(cause)}). Run these once with operator rights (on Temporal Cloud, add the same names and types to the namespace in the Cloud UI or with tcld), then start again:\n` +
      registrationCommands(missing, at)
        .map((line) => `  ${line}`)
        .join('\n'),
    { cause },
  );
}

/** The one line a command prints after registering attributes. */
export function registeredLine(check: SearchAttributeCheck, at: ServerCoordinates): string | undefined {
  if (check.registered.length === 0) return undefined;
  return `registered search attributes ${check.registered.join(', ')} on namespace ${at.namespace} at ${at.address}`;
}

const checked = new Map<string, Promise<void>>();

/**
 * The check once per process and server: commands that start several runs (batch,
 * pipeline, eval) ask for it each time they connect. Prints the one line on `write`.
 */
export function searchAttributesReady(
  operator: SearchAttributeOperator,
  at: ServerCoordinates,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  const key = `${at.address}/${at.namespace}`;
  let pending = checked.get(key);
  if (pending === undefined) {
    pending = ensureSearchAttributes(operator, at).then((check) => {
      const line = registeredLine(check, at);
      if (line !== undefined) write(line);
    });
    pending.catch(() => checked.delete(key)); // a refused check is asked again next time
    checked.set(key, pending);
  }
  return pending;
}
