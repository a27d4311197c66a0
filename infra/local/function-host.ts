import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FunctionDecl } from '../wiring.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './emulators.ts';
import { functionBundle, functionBundleDir } from './function-bundles.ts';
import type { Log } from './log.ts';

/** Why an invocation failed. `handled`: the handler threw; the others end the execution environment. */
export type FailureKind = 'handled' | 'timeout' | 'crash' | 'init';

export class InvocationError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly errorType: string,
    readonly errorMessage: string,
    readonly errorStack?: string,
  ) {
    super(`${errorType}: ${errorMessage}`);
    this.name = 'InvocationError';
  }
}

/** Receives each line a function writes (its log lines, its EMF metric documents), with the function's name. */
export type FunctionOutput = (line: string, from: { function: string; stream: 'stdout' | 'stderr' }) => void;

export interface InvokeOptions {
  /** Wall-clock limit for this invocation, below the function's (API Gateway's 29 s integration timeout). */
  timeoutMs?: number;
}

interface Sandbox {
  worker: Worker;
  /** Its own /tmp (Lambda gives each execution environment one). */
  tmp: string;
  /** Resolves when the worker posts its next invocation outcome, even for an invocation nobody awaits any more. */
  settled?: () => void;
  /** Ends the environment when it has been idle too long. */
  idleTimer?: NodeJS.Timeout;
  ready: Promise<void>;
  busy: boolean;
  dead: boolean;
  pending?: { id: string; settle: (outcome: { json?: string; error?: InvocationError }) => void };
  onDeath: (error: InvocationError) => void;
}

const WORKER_URL = new URL('./lambda-worker.mjs', import.meta.url);
/** Lambda gives a function 10 s to initialise; tsx compiles on first load here, so allow more. */
const INIT_TIMEOUT_MS = 60_000;
/**
 * How long an idle execution environment lives. Lambda too ends idle environments; here each holds a worker's heap
 * and a compiler process, so a function called once (a schedule, a burst's second environment) does not keep them.
 */
const IDLE_ENVIRONMENT_MS = 3 * 60_000;

/** What an execution environment's worker (lambda-worker.mjs) posts. */
interface WorkerMessage {
  type: string;
  id?: string;
  json?: string;
  initMs?: number;
  error?: { errorType: string; errorMessage: string; stack?: string };
}

/**
 * A function's execution environments: up to `concurrency` worker threads, each running one invocation at a
 * time, each a separate cold start with exactly the function's own environment. A timed-out or crashed
 * environment is thrown away and the next invocation gets a fresh one, as on Lambda.
 */
export class FunctionHost {
  readonly functionName: string;
  private readonly sandboxes = new Set<Sandbox>();
  private readonly waiting: Array<() => void> = [];
  private stopped = false;
  /** Environments kept however long idle: the prewarmed one, as provisioned concurrency keeps it. */
  private kept = 0;
  private readonly entryPath: string;
  /** The module its environments import, once known (a bundle is built on the first cold start). */
  private entryUrl?: Promise<{ url: string; bundled: boolean }>;

  constructor(
    readonly name: string,
    readonly decl: FunctionDecl,
    private readonly env: Record<string, string>,
    /**
     * `output`: where the function's stdout and stderr lines go. @default the runtime's own stdout and stderr
     * `idleMs`: how long an idle environment lives. @default IDLE_ENVIRONMENT_MS
     * `bundled`: its environments import the handler's bundle (./function-bundles.ts), not its TypeScript. @default false
     */
    private readonly options: {
      root: string;
      concurrency: number;
      log: Log;
      functionPrefix: string;
      output?: FunctionOutput;
      idleMs?: number;
      bundled?: boolean;
    },
  ) {
    this.functionName = `${options.functionPrefix}-${name}`;
    this.entryPath = resolve(options.root, decl.entry);
  }

  get entryExists() {
    return existsSync(this.entryPath);
  }

  /** How many execution environments the function has now (started, busy or idle). */
  get environments() {
    return this.sandboxes.size;
  }

  get concurrency() {
    return this.options.concurrency;
  }

  async invoke(event: unknown, options: InvokeOptions = {}): Promise<unknown> {
    if (this.stopped) throw new InvocationError('crash', 'Runtime.Stopped', 'the local runtime is stopping');
    const sandbox = await this.acquire();
    try {
      return await this.run(sandbox, event, options);
    } finally {
      sandbox.busy = false;
      this.endWhenIdle(sandbox);
      this.waiting.shift()?.();
    }
  }

  /** Ends the environment if it is still idle after `idleMs` and more than the kept ones exist. */
  private endWhenIdle(sandbox: Sandbox) {
    clearTimeout(sandbox.idleTimer);
    sandbox.idleTimer = setTimeout(() => {
      if (sandbox.busy || sandbox.dead || this.sandboxes.size <= this.kept) return;
      this.options.log.debug('idle execution environment ended', { function: this.name });
      void this.discard(sandbox);
    }, this.options.idleMs ?? IDLE_ENVIRONMENT_MS);
    sandbox.idleTimer.unref();
  }

  /**
   * Starts one execution environment and waits for its initialisation (its handler module imported), so the first
   * invocation finds it warm. A failed initialisation is left to the first invocation to report.
   */
  async prewarm(): Promise<void> {
    this.kept = 1;
    if (this.stopped || this.sandboxes.size > 0) return;
    const entry = await this.entry().catch(() => undefined);
    if (entry && !this.stopped && this.sandboxes.size === 0) await this.spawn(entry).ready.catch(() => undefined);
  }

  async stop() {
    this.stopped = true;
    await Promise.all([...this.sandboxes].map((s) => this.discard(s)));
    for (const wake of this.waiting.splice(0)) wake();
  }

  private async acquire(): Promise<Sandbox> {
    for (;;) {
      if (this.stopped) throw new InvocationError('crash', 'Runtime.Stopped', 'the local runtime is stopping');
      const idle = [...this.sandboxes].find((s) => !s.busy && !s.dead);
      if (idle) {
        clearTimeout(idle.idleTimer);
        idle.busy = true;
        return idle;
      }
      if (this.sandboxes.size < this.options.concurrency) {
        const entry = await this.entry();
        // Others may have started environments while the bundle was built.
        if (this.stopped || this.sandboxes.size >= this.options.concurrency) continue;
        const sandbox = this.spawn(entry);
        sandbox.busy = true;
        return sandbox;
      }
      await new Promise<void>((wake) => this.waiting.push(wake));
    }
  }

  /** The handler's module: its bundle, built if needed, or its entry; a failed build is an initialisation error, tried again next time. */
  private entry(): Promise<{ url: string; bundled: boolean }> {
    if (!this.options.bundled) return Promise.resolve({ url: pathToFileURL(this.entryPath).href, bundled: false });
    this.entryUrl ??= functionBundle(this.options.root, this.decl.entry, functionBundleDir(this.options.root, this.name)).then(
      (bundle) => ({ url: pathToFileURL(bundle).href, bundled: true }),
      (error: Error) => {
        this.entryUrl = undefined;
        this.options.log.error('function failed to bundle', { function: this.name, error: error.message });
        throw new InvocationError('init', 'Runtime.ImportModuleError', `${this.decl.entry} did not bundle: ${error.message}`);
      },
    );
    return this.entryUrl;
  }

  private spawn(entry: { url: string; bundled: boolean }): Sandbox {
    // Lambda gives each execution environment its own /tmp, and the render and assemble functions rely on it
    // (they clear their leftover work dirs there at the start of each invocation): so does this, through
    // TMPDIR, which os.tmpdir() reads in the worker. Removed when the environment ends.
    const tmp = mkdtempSync(join(this.env.TMPDIR ?? tmpdir(), `${this.functionName}-env-`));
    const worker = this.startWorker(tmp, entry);
    let markReady!: () => void;
    let failInit!: (error: InvocationError) => void;
    const sandbox: Sandbox = {
      worker,
      tmp,
      busy: false,
      dead: false,
      ready: new Promise<void>((res, rej) => {
        markReady = res;
        failInit = rej;
      }),
      onDeath: () => {},
    };
    sandbox.ready.catch(() => {});
    const die = (error: InvocationError) => {
      if (sandbox.dead) return;
      sandbox.dead = true;
      clearTimeout(sandbox.idleTimer);
      this.sandboxes.delete(sandbox);
      failInit(error);
      sandbox.pending?.settle({ error });
      sandbox.pending = undefined;
    };
    sandbox.onDeath = die;
    this.watch(sandbox, { markReady, die, tmp });
    this.sandboxes.add(sandbox);
    return sandbox;
  }

  /** The worker of one execution environment, with Lambda's environment variables; its output forwarded if asked. */
  private startWorker(tmp: string, entry: { url: string; bundled: boolean }): Worker {
    const env = {
      ...this.env,
      TMPDIR: tmp,
      AWS_LAMBDA_FUNCTION_NAME: this.functionName,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(this.decl.memoryMb),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${this.functionName}`,
      AWS_LAMBDA_LOG_STREAM_NAME: `local/${randomUUID()}`,
    };
    const worker = new Worker(WORKER_URL, {
      env,
      workerData: { entry: this.decl.entry, entryUrl: entry.url, bundled: entry.bundled, handlerExport: 'handler', compileCacheTmp: tmpdir() },
      name: this.functionName,
      // Piped only when someone reads it; otherwise the worker writes to this process's stdout and stderr.
      stdout: !!this.options.output,
      stderr: !!this.options.output,
    });
    if (this.options.output) {
      const output = this.options.output;
      const forward = (input: Readable, stream: 'stdout' | 'stderr') =>
        createInterface({ input, crlfDelay: Infinity }).on('line', (line) => output(line, { function: this.name, stream }));
      forward(worker.stdout, 'stdout');
      forward(worker.stderr, 'stderr');
    }
    return worker;
  }

  /** The sandbox's life from its worker's events: ready or failed initialisation, invocation outcomes, crash, exit. */
  private watch(sandbox: Sandbox, lifecycle: { markReady: () => void; die: (error: InvocationError) => void; tmp: string }) {
    const { worker } = sandbox;
    const { markReady, die, tmp } = lifecycle;
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') {
        this.options.log.debug('cold start', { function: this.name, initMs: message.initMs });
        markReady();
      } else if (message.type === 'init-error') {
        const e = message.error!;
        this.options.log.error('function failed to initialise', {
          function: this.name,
          errorType: e.errorType,
          errorMessage: e.errorMessage,
          stack: e.stack,
        });
        die(new InvocationError('init', e.errorType, e.errorMessage, e.stack));
        void worker.terminate();
      } else if (message.type === 'result' || message.type === 'error') sandbox.settled?.();
      if (sandbox.pending && message.id === sandbox.pending.id && (message.type === 'result' || message.type === 'error')) {
        const pending = sandbox.pending;
        sandbox.pending = undefined;
        if (message.type === 'result') pending.settle({ json: message.json });
        else pending.settle({ error: new InvocationError('handled', message.error!.errorType, message.error!.errorMessage, message.error!.stack) });
      }
    });
    worker.on('error', (error) => {
      this.options.log.error('execution environment crashed', { function: this.name, error: error.message, stack: error.stack });
      die(new InvocationError('crash', 'Runtime.ExitError', `the execution environment crashed: ${error.message}`));
    });
    worker.on('exit', (code) => {
      die(new InvocationError('crash', 'Runtime.ExitError', `the execution environment exited with code ${code}`));
      // Terminating a worker does not stop the processes it started (a render's ffmpeg would run on); Lambda
      // stops a whole environment, so this stops what still works in this one's /tmp.
      killProcessesUsing(tmp);
      void rm(tmp, { recursive: true, force: true }).catch(() => {});
    });
  }

  private async discard(sandbox: Sandbox, error?: InvocationError) {
    sandbox.onDeath(error ?? new InvocationError('crash', 'Runtime.Stopped', 'the execution environment was stopped'));
    await sandbox.worker.terminate().catch(() => {});
  }

  /**
   * A timed-out environment: out of service at once, its processes stopped, and its worker terminated once its
   * handler returns (or after one more of the function's timeouts). Terminating a worker while a native addon
   * (onnxruntime, sharp) still works for it aborts the whole process, and with it every other function.
   */
  private retire(sandbox: Sandbox, error: InvocationError) {
    sandbox.onDeath(error);
    killProcessesUsing(sandbox.tmp);
    const returned = new Promise<void>((done) => (sandbox.settled = done));
    void this.withTimeout(returned, this.decl.timeoutSeconds * 1000, () => undefined)
      .catch(() => {})
      .then(() => sandbox.worker.terminate())
      .catch(() => {});
  }

  private async withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(onTimeout()), ms)))]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(sandbox: Sandbox, event: unknown, options: InvokeOptions): Promise<unknown> {
    await this.withTimeout(sandbox.ready, INIT_TIMEOUT_MS, () => {
      const error = new InvocationError('init', 'Runtime.InitTimeout', `initialisation took longer than ${INIT_TIMEOUT_MS / 1000} s`);
      void this.discard(sandbox, error);
      return error;
    });
    const timeoutMs = Math.min(this.decl.timeoutSeconds * 1000, options.timeoutMs ?? Infinity);
    const id = randomUUID();
    const outcome = new Promise<{ json?: string; error?: InvocationError }>((settle) => (sandbox.pending = { id, settle }));
    const context = {
      awsRequestId: id,
      functionName: this.functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${this.functionName}`,
      memoryLimitInMB: String(this.decl.memoryMb),
      logGroupName: `/aws/lambda/${this.functionName}`,
      logStreamName: `local/${this.functionName}`,
      deadline: Date.now() + this.decl.timeoutSeconds * 1000,
    };
    sandbox.worker.postMessage({ id, event, context });
    const { json, error } = await this.withTimeout(outcome, timeoutMs, () => {
      const seconds = (timeoutMs / 1000).toFixed(2);
      const timedOut = new InvocationError('timeout', 'Sandbox.Timedout', `Task timed out after ${seconds} seconds`);
      this.options.log.warn('invocation timed out; the execution environment is replaced', { function: this.name, requestId: id, timeoutMs });
      this.retire(sandbox, timedOut);
      return timedOut;
    });
    if (error) throw error;
    return JSON.parse(json!);
  }
}

/**
 * SIGKILLs every process whose command line mentions `dir` (Linux /proc; elsewhere nothing happens).
 * @internal Exported for its tests.
 */
export function killProcessesUsing(dir: string): number {
  let killed = 0;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) continue;
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return killed;
}
