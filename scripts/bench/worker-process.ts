/**
 * Worker child processes (scripts/bench/worker-child.ts under tsx, or the compiled
 * dist/worker.js): spawn, wait until they poll, SIGKILL, and read their memory from
 * /proc/<pid>/status.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { COMPILED_WORKER } from './compiled-worker.js';

export const WORKER_CHILD = join(PROJECT_ROOT, 'scripts', 'bench', 'worker-child.ts');

export interface WorkerEnv {
  readonly address: string;
  readonly namespace?: string;
  readonly taskQueue: string;
  readonly modelUrl: string;
  readonly bundlePath?: string;
  /** Start the floor worker with this floor-workflow bundle instead of the run worker. */
  readonly floorBundlePath?: string;
  /** Write a V8 CPU profile of the worker into this directory (on a graceful exit: SIGTERM). */
  readonly cpuProfileDir?: string;
  /**
   * Run the compiled worker (dist/worker.js, its prebuilt bundle; see compiled-worker.ts
   * for the build) instead of worker-child.ts under tsx; bundlePath and floorBundlePath
   * do not apply.
   */
  readonly compiled?: boolean;
  /** The harness state dir (ISSUE_AGENT_STATE_DIR): a phase that must start with cold caches gives its own. */
  readonly stateDir?: string;
}

/** What each kind of worker prints once it polls. */
const READY_LINE = /^(READY \d+|worker polling )/m;

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly spawnedAt: number;
  /** Resolves with the time READY was printed; rejects if the process exits first. */
  readonly ready: Promise<number>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  alive(): boolean;
}

export function spawnWorker(env: WorkerEnv, options: { stderr?: 'inherit' | 'ignore' } = {}): WorkerProcess {
  const { ANTHROPIC_API_KEY: _key, GITHUB_TOKEN: _token, ...base } = process.env;
  const spawnedAt = performance.now();
  const profile = env.cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${env.cpuProfileDir}`];
  const entry = env.compiled ? [COMPILED_WORKER] : ['--import', 'tsx', WORKER_CHILD];
  const child = spawn(process.execPath, [...profile, ...entry], {
    cwd: PROJECT_ROOT,
    env: {
      ...base,
      NODE_TEST_CONTEXT: '',
      LOG_LEVEL: 'ERROR',
      TEMPORAL_ADDRESS: env.address,
      TEMPORAL_NAMESPACE: env.namespace ?? 'default',
      TEMPORAL_TASK_QUEUE: env.taskQueue,
      ANTHROPIC_BASE_URL: env.modelUrl,
      ...(env.bundlePath ? { BENCH_BUNDLE: env.bundlePath } : {}),
      ...(env.floorBundlePath ? { BENCH_FLOOR: env.floorBundlePath } : {}),
      ...(env.stateDir ? { ISSUE_AGENT_STATE_DIR: env.stateDir } : {}),
    },
    stdio: ['ignore', 'pipe', options.stderr ?? 'ignore'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<number>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      if (READY_LINE.test(buffer)) resolve(performance.now());
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`worker exited before it polled (code ${code}, signal ${signal})`)),
    );
  });
  ready.catch(() => undefined);
  return {
    child,
    pid: child.pid ?? -1,
    spawnedAt,
    ready,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

/** VmRSS and VmHWM (peak) of a process, in MB; undefined when it is gone. */
export function procMemoryMb(pid: number): { rssMb: number; hwmMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** The live children of a process (the worker's spawner helper, running git and bash…). */
export function procChildren(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((p) => p !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** RSS of a process and all its live descendants (the worker counts with its helper). */
function treeRssMb(pid: number): number {
  return (procMemoryMb(pid)?.rssMb ?? 0) + procChildren(pid).reduce((sum, child) => sum + treeRssMb(child), 0);
}

/**
 * Samples the RSS of a process and its descendants every `everyMs` until stopped;
 * returns the peaks seen (hwmMb: the process's own VmHWM).
 */
export function sampleMemory(
  pid: number,
  everyMs = 200,
): { stop(): { peakRssMb: number; hwmMb: number; samples: number } } {
  let peakRssMb = 0;
  let hwmMb = 0;
  let samples = 0;
  const take = (): void => {
    const m = procMemoryMb(pid);
    if (m === undefined) return;
    samples += 1;
    peakRssMb = Math.max(peakRssMb, treeRssMb(pid));
    hwmMb = Math.max(hwmMb, m.hwmMb);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      take();
      clearInterval(timer);
      return { peakRssMb, hwmMb, samples };
    },
  };
}

/**
 * CPU seconds (user + system) a process has used so far; with `children`, plus what its
 * exited, reaped children used and, recursively, what its live children used (the
 * worker's spawner helper lives as long as the worker and reaps the git processes
 * itself); undefined when it is gone.
 */
export function procCpuSeconds(pid: number, children = false): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // [11] utime, [12] stime, [13] cutime, [14] cstime (clock ticks, 100 per second on Linux)
    const own = Number(fields[11]) + Number(fields[12]);
    if (!children) return own / 100;
    const reaped = Number(fields[13]) + Number(fields[14]);
    const live = procChildren(pid).reduce((sum, child) => sum + (procCpuSeconds(child, true) ?? 0), 0);
    return (own + reaped) / 100 + live;
  } catch {
    return undefined;
  }
}
