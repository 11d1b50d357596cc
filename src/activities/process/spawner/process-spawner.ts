/**
 * The ProcessSpawner port: run one program (never a shell line) with an explicit
 * environment and get its exit code and output. The harness's git calls go through it.
 *
 * Why a helper process: Node starts a child by fork()ing itself, and fork() blocks the
 * event loop for as long as the kernel needs to copy the page tables of the whole
 * process. For a worker holding hundreds of MB (workflow isolates, gRPC, caches) that is
 * ~10 ms per git call, on the one thread that also runs every activity: with 50 runs at
 * once the worker spent half its time inside fork() (measured with `npm run bench --
 * --profile`). The helper is a bare `node -e` process of ~40 MB, so its forks are
 * cheap and none of them stops the worker.
 *
 * The helper is started on first use, restarted after it dies, and exits with its
 * parent. It gets an empty environment: each request carries the child's environment
 * (the harness git env), so the helper holds no credential of the worker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { SPAWNER_PROGRAM } from './spawner-program.js';

export interface SpawnRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The child's whole environment (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** Written to the child's stdin, which is then closed; without it stdin is /dev/null. */
  readonly input?: string;
  /** Per-stream cap of captured characters (default 64 Mi); see `capMode` for what is kept. */
  readonly maxChars?: number;
  /** `head` (default): the first `maxChars`; `headTail`: half from each end, the middle elided with a marker. */
  readonly capMode?: 'head' | 'headTail';
  /** Also collect stdout and stderr interleaved in arrival order (`all`). */
  readonly all?: boolean;
  /** Run it as the leader of its own process group; every kill then ends the whole group. */
  readonly group?: boolean;
  /** Ended (SIGTERM, SIGKILL after `killGraceMs`) after this long; the result says `timedOut`. */
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
  /** Ended at once (SIGKILL) when its output passes the cap. */
  readonly killOnOverflow?: boolean;
  /** SIGKILL the group once the leader has exited (nothing it started outlives it). */
  readonly killGroupAfterExit?: boolean;
  /** Ends the program (as a timeout does); the result says `canceled`. */
  readonly signal?: AbortSignal;
}

export interface SpawnResult {
  /** null when the process was killed by a signal. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  /** With `all`: both streams interleaved. */
  readonly all?: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
  readonly canceled: boolean;
}

export interface ProcessSpawner {
  /** Resolves for any exit; rejects when the program cannot be started (`ENOENT` …) or the helper died. */
  run(request: SpawnRequest): Promise<SpawnResult>;
  /** Stops the helper (it is also stopped by the parent's exit). */
  close(): void;
  /** The helper's pid while it runs (for the bench's CPU and memory accounting, and tests). */
  helperPid(): number | undefined;
  /** Starts the helper now (a worker does at its start) instead of at the first request. */
  warm(): void;
}

const DEFAULT_MAX_CHARS = 64 * 1024 * 1024;

type Reply = { id: number; error: string } | ({ id: number } & SpawnResult);

interface Pending {
  readonly resolve: (result: SpawnResult) => void;
  readonly reject: (error: Error) => void;
  readonly what: string;
}

const CANCELED_BEFORE_START: SpawnResult = {
  exitCode: null,
  signal: null,
  stdout: '',
  stderr: '',
  truncated: false,
  timedOut: false,
  canceled: true,
};

/** The spawner that runs programs from a helper process (the default of the harness). */
export function createHelperSpawner(): ProcessSpawner {
  let helper: ChildProcess | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let lastStderr = '';

  /**
   * The helper keeps the worker alive only while a request waits on it. Both the channel
   * and the process handle are held then: with the channel alone, a helper killed mid-request
   * closes the channel before its exit is reported, the event loop empties, and the waiting
   * request is never rejected (seen in CI as a test cancelled with its promise pending).
   */
  const updateRef = (child: ChildProcess): void => {
    if (pending.size > 0) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  };

  const start = (): ChildProcess => {
    const child = spawn(process.execPath, ['-e', SPAWNER_PROGRAM], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: {},
      windowsHide: true,
    });
    child.unref();
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      lastStderr = (lastStderr + chunk).slice(-2000);
    });
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    child.on('message', (message: Reply) => {
      const waiting = pending.get(message.id);
      if (waiting === undefined) return;
      pending.delete(message.id);
      updateRef(child);
      if ('error' in message) waiting.reject(new Error(`${waiting.what}: ${message.error}`));
      else {
        const { id: _id, ...result } = message;
        waiting.resolve(result);
      }
    });
    const gone = (reason: string): void => {
      if (helper === child) helper = undefined;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(
          new AgentError(FailureType.WorktreeFailed, `the process helper ${reason} while running ${waiting.what}`, {
            details: { stderr: lastStderr.trim().slice(-500) },
            retryable: true,
          }),
        );
      }
    };
    child.on('error', (err) => gone(`could not run (${err.message})`));
    child.on('exit', (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    return child;
  };

  return {
    run(request) {
      const { signal, ...wire } = request;
      if (signal?.aborted) return Promise.resolve(CANCELED_BEFORE_START);
      helper ??= start();
      const child = helper;
      const id = nextId++;
      const what = `${request.file} ${request.args.slice(0, 4).join(' ')}`;
      return new Promise<SpawnResult>((resolve, reject) => {
        const onAbort = (): void => {
          if (pending.has(id)) child.send({ cancel: id }, () => undefined);
        };
        const settle =
          <T>(fn: (value: T) => void) =>
          (value: T): void => {
            signal?.removeEventListener('abort', onAbort);
            fn(value);
          };
        pending.set(id, { resolve: settle(resolve), reject: settle(reject), what });
        signal?.addEventListener('abort', onAbort, { once: true });
        updateRef(child);
        child.send(
          { id, ...wire, maxChars: request.maxChars ?? DEFAULT_MAX_CHARS, capMode: request.capMode ?? 'head' },
          (err) => {
            const waiting = pending.get(id);
            if (err === null || waiting === undefined) return;
            pending.delete(id);
            updateRef(child);
            waiting.reject(err);
          },
        );
      });
    },
    close() {
      helper?.kill();
      helper = undefined;
    },
    helperPid: () => helper?.pid,
    warm() {
      helper ??= start();
    },
  };
}

let shared: ProcessSpawner | undefined;

/** The process-wide helper spawner (one helper per worker or CLI process). */
export function sharedSpawner(): ProcessSpawner {
  shared ??= createHelperSpawner();
  return shared;
}
