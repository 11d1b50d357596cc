/**
 * The SetupProcessRunner port: run one setup command line (bash) in a directory with
 * an explicit, whole environment, started as `launch` says (on the host by default; the
 * environment phase's runners start it in the sandbox: sandboxed-setup-runner), in its
 * own process group so a timeout ends npm's or pip's children too.
 * Output is captured capped (head and tail) and redacted. Tests may pass a fake.
 */
import { execa } from 'execa';
import { CappedText } from '../process/capped-text.js';
import { redactorForEnv, type Redact } from '../edge/secret-redactor.js';

export interface SetupProcessRequest {
  readonly command: string;
  readonly cwd: string;
  /** The child's whole environment (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Directories a contained command may write besides `cwd` (the host runner ignores it). */
  readonly writableDirs?: readonly string[];
  /** Directories a contained command sees read-only (the host runner ignores it). */
  readonly readOnlyDirs?: readonly string[];
}

export interface SetupProcessResult {
  /** Undefined when it did not exit by itself (timeout, signal, could not start). */
  readonly exitCode: number | undefined;
  readonly timedOut: boolean;
  /** stdout and stderr interleaved, capped and redacted. */
  readonly output: string;
  readonly durationMs: number;
}

export interface SetupProcessRunner {
  run(request: SetupProcessRequest): Promise<SetupProcessResult>;
}

const OUTPUT_CAP_CHARS = 64 * 1024;
const KILL_GRACE_MS = 3000;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** What is started for a request: the program, its arguments and its whole environment. */
export interface SetupLaunch {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The request's command line under bash, in the request's environment, on the host. */
const onHost = (request: SetupProcessRequest): Promise<SetupLaunch> =>
  Promise.resolve({ file: 'bash', args: ['-c', request.command], env: request.env });

export function createExecaSetupRunner(
  options: { readonly redact?: Redact; readonly launch?: (request: SetupProcessRequest) => Promise<SetupLaunch> } = {},
): SetupProcessRunner {
  const launch = options.launch ?? onHost;
  return {
    async run(request) {
      // The worker's secrets as they are now (a key may be rotated while the worker runs).
      const redact = options.redact ?? redactorForEnv(process.env);
      const started = Date.now();
      const text = new CappedText(OUTPUT_CAP_CHARS);
      const how = await launch(request);
      const child = execa(how.file, [...how.args], {
        cwd: request.cwd,
        env: how.env,
        extendEnv: false,
        stdin: 'ignore',
        buffer: false,
        all: true,
        reject: false,
        detached: true,
        ...(request.signal ? { cancelSignal: request.signal } : {}),
      });
      child.all?.setEncoding('utf8');
      child.all?.on('data', (chunk: string) => text.append(chunk));
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid, 'SIGTERM');
        setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
      }, request.timeoutMs);
      const onAbort = (): void => killGroup(child.pid, 'SIGTERM');
      request.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await child;
        if (result.failed && result.exitCode === undefined && !timedOut) {
          text.append(`\n${result.shortMessage ?? 'could not be started'}\n`);
        }
        return {
          exitCode: timedOut ? undefined : result.exitCode,
          timedOut,
          output: redact(text.toString()),
          durationMs: Date.now() - started,
        };
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        // Nothing a setup command started outlives it.
        killGroup(child.pid, 'SIGKILL');
      }
    },
  };
}
