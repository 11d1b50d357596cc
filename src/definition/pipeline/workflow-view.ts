/**
 * A lenient, typed view of a parsed workflow.json: only the parts whose types are
 * right, so the cross-reference rules can run even when the file failed its schema
 * (one report lists shape and reference problems together). A value of the wrong type
 * is simply absent here; the schema check names it.
 */
export interface PhaseView {
  readonly type?: string;
  readonly priority?: number;
  /** `null` when the file says null. */
  readonly agent?: string | null;
}

export interface AgentView {
  readonly role?: string;
  readonly directory?: string;
  readonly fallbackPhase?: string;
  readonly closeOnComplete?: boolean;
  readonly closeCondition?: string;
  readonly outputPhase?: string;
  readonly fallbackPhases?: ReadonlyMap<string, string>;
  readonly outputPhases?: ReadonlyMap<string, string>;
}

export interface PrioritizerView {
  readonly agent?: string;
  readonly labels: readonly string[];
  readonly defaultLabel?: string;
}

export interface WorkflowView {
  /** The file's name in problems (`workflow.json`). */
  readonly file: string;
  /** The parsed top-level object (for keys the view does not type). */
  readonly raw: Readonly<Record<string, unknown>>;
  readonly phases: ReadonlyMap<string, PhaseView>;
  readonly labelMapping: ReadonlyMap<string, string>;
  /** Undefined when the file declares no `labels` (label specs are opt-in, as upstream). */
  readonly labels?: ReadonlyMap<string, unknown>;
  readonly agents: ReadonlyMap<string, AgentView>;
  readonly prioritizer?: PrioritizerView;
  /**
   * Whether `phases`, `labelMapping` and `agents` are non-empty objects. When one is not,
   * its schema problem says so, and the rules that look things up in it stay silent
   * rather than report every reference as unknown.
   */
  readonly usable: { readonly phases: boolean; readonly labelMapping: boolean; readonly agents: boolean };
}

type Obj = Readonly<Record<string, unknown>>;

export function asObject(value: unknown): Obj | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

function entries(value: unknown): [string, unknown][] {
  return Object.entries(asObject(value) ?? {});
}

function stringMap(value: unknown): Map<string, string> | undefined {
  const o = asObject(value);
  if (o === undefined) return undefined;
  return new Map(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Undefined when the top level is not an object (nothing to check beyond the schema). */
export function workflowView(value: unknown, file: string): WorkflowView | undefined {
  const raw = asObject(value);
  if (raw === undefined) return undefined;
  const phases = new Map<string, PhaseView>();
  for (const [id, p] of entries(raw['phases'])) {
    const o = asObject(p);
    if (o === undefined) continue;
    const agent = o['agent'] === null ? null : str(o['agent']);
    phases.set(id, { type: str(o['type']), priority: num(o['priority']), ...(agent === undefined ? {} : { agent }) });
  }
  const agents = new Map<string, AgentView>();
  for (const [id, a] of entries(raw['agents'])) {
    const o = asObject(a);
    if (o === undefined) continue;
    agents.set(id, {
      role: str(o['role']),
      directory: str(o['directory']),
      fallbackPhase: str(o['fallbackPhase']),
      closeOnComplete: bool(o['closeOnComplete']),
      closeCondition: str(o['closeCondition']),
      outputPhase: str(o['outputPhase']),
      fallbackPhases: stringMap(o['fallbackPhases']),
      outputPhases: stringMap(o['outputPhases']),
    });
  }
  const labels = asObject(raw['labels']);
  const prioritizer = asObject(raw['prioritizer']);
  const priorityLabels = prioritizer?.['labels'];
  const nonEmpty = (key: string): boolean => Object.keys(asObject(raw[key]) ?? {}).length > 0;
  return {
    file,
    raw,
    usable: { phases: nonEmpty('phases'), labelMapping: nonEmpty('labelMapping'), agents: nonEmpty('agents') },
    phases,
    labelMapping: stringMap(raw['labelMapping']) ?? new Map(),
    ...(labels === undefined ? {} : { labels: new Map(Object.entries(labels)) }),
    agents,
    ...(prioritizer === undefined
      ? {}
      : {
          prioritizer: {
            agent: str(prioritizer['agent']),
            labels: Array.isArray(priorityLabels) ? priorityLabels.filter((l) => typeof l === 'string') : [],
            defaultLabel: str(prioritizer['defaultLabel']),
          },
        }),
  };
}
