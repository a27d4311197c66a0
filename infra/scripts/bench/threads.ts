/**
 * The service's CPU split by thread and process, from /proc (Linux only): what a render costs on AWS (the functions'
 * own threads and the ffmpeg they start) against what the local runtime adds (its main thread: emulators, gateway,
 * queue pollers, request signing; the threads it shares).
 *
 * The local runtime names each function's worker thread `fn-<function>` (infra/local/lambda-worker.mjs); a
 * thread it starts inherits the name, so espeak-ng's worker counts as the render's. The threads Node starts for
 * the whole process (V8's platform workers: concurrent garbage collection and compilation of every isolate, the
 * functions' included; libuv's pool) stay unnamed and are counted apart, since they cannot be told apart by isolate.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc's ticks per second. */
const HZ = 100;

/** One moment's CPU ticks: each live thread's (by id, with its name), the whole process's, its waited-for children's. */
export interface ThreadSnapshot {
  threads: Map<string, { name: string; ticks: number }>;
  process: number;
  children: number;
}

/** CPU seconds between two snapshots, by where they went. */
export interface CpuSplit {
  /** Each function's named threads (its worker, espeak-ng's), seconds. */
  functions: Record<string, number>;
  /** The waited-for children: every function's ffmpeg (the render's passes and checks, the assembly's). */
  children: number;
  /** The runtime's main thread. */
  main: number;
  /**
   * Node's process-wide threads (V8 platform, libuv pool), and what threads that ended in between used after their
   * last sample (ThreadWatch).
   */
  shared: number;
}

/** The name and user + system ticks of a stat(5) line: the name is in parentheses and may hold spaces. */
function statOf(text: string): { name: string; fields: string[] } {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  // fields[0] is stat(5)'s field 3 (state).
  return { name: text.slice(open + 1, close), fields: text.slice(close + 2).split(' ') };
}

const ticksOf = (fields: string[], ...indexes: number[]) => indexes.reduce((sum, i) => sum + Number(fields[i]), 0);

/** This process's threads and children now. */
export function threadSnapshot(): ThreadSnapshot {
  const threads = new Map<string, { name: string; ticks: number }>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const { name, fields } = statOf(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));
      threads.set(tid, { name, ticks: ticksOf(fields, 11, 12) });
    } catch {
      // the thread ended while the list was read: its ticks are in the process's
    }
  }
  const { fields } = statOf(readFileSync('/proc/self/stat', 'utf8'));
  return { threads, process: ticksOf(fields, 11, 12), children: ticksOf(fields, 13, 14) };
}

/** Where the CPU between `before` and `after` went. */
export function splitBetween(before: ThreadSnapshot, after: ThreadSnapshot, pid = String(process.pid)): CpuSplit {
  const split: CpuSplit = { functions: {}, children: (after.children - before.children) / HZ, main: 0, shared: 0 };
  let counted = 0;
  for (const [tid, { name, ticks }] of after.threads) {
    const delta = ticks - (before.threads.get(tid)?.ticks ?? 0);
    counted += delta;
    if (tid === pid) split.main += delta / HZ;
    else if (name.startsWith('fn-')) {
      const fn = name.slice(3);
      split.functions[fn] = (split.functions[fn] ?? 0) + delta / HZ;
    } else split.shared += delta / HZ;
  }
  // A thread that ended in between left its ticks in the process's total alone.
  split.shared += Math.max(0, after.process - before.process - counted) / HZ;
  return split;
}

/**
 * The threads' CPU over a stretch of time, sampled every `everyMs`: a thread that ends before `stop` (an execution
 * environment ended while idle, a stopped espeak-ng thread) is counted as its function's up to its last sample, where
 * two snapshots alone would leave all of it in the process's total. Only what it used after that sample is `shared`.
 */
export class ThreadWatch {
  private readonly start = threadSnapshot();
  /** Each thread's ticks when last seen, ended threads' included. */
  private readonly seen = new Map(this.start.threads);
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 200) {
    this.timer = setInterval(() => this.sample(threadSnapshot()), everyMs);
    this.timer.unref();
  }

  private sample(now: ThreadSnapshot): void {
    for (const [tid, thread] of now.threads) this.seen.set(tid, thread);
  }

  /** Where the CPU went since the watch started. */
  stop(pid = String(process.pid)): CpuSplit {
    clearInterval(this.timer);
    const end = threadSnapshot();
    this.sample(end);
    return splitBetween(this.start, { ...end, threads: this.seen }, pid);
  }
}

/**
 * `a` and `b` together, less `ownChildren` seconds of b's children: the bench's own ffmpeg (the floor), which is
 * not the service's.
 */
export function addSplits(a: CpuSplit, b: CpuSplit, ownChildren = 0): CpuSplit {
  const functions = { ...a.functions };
  for (const [fn, seconds] of Object.entries(b.functions)) functions[fn] = (functions[fn] ?? 0) + seconds;
  return { functions, children: a.children + Math.max(0, b.children - ownChildren), main: a.main + b.main, shared: a.shared + b.shared };
}

/** The functions' threads and their children: what the video costs where each function has its own machine. */
export const functionsCpu = (split: CpuSplit) => Object.values(split.functions).reduce((a, b) => a + b, 0) + split.children;

/** What the local runtime adds: its main thread and the process-wide threads. */
export const runtimeCpu = (split: CpuSplit) => split.main + split.shared;

/** The split on one line, the render's own first. */
export function describeSplit(split: CpuSplit): string {
  const f2 = (n: number) => n.toFixed(2);
  const byFunction = Object.entries(split.functions)
    .filter(([, seconds]) => seconds >= 0.005)
    .sort(([, a], [, b]) => b - a)
    .map(([fn, seconds]) => `${fn} ${f2(seconds)}`)
    .join(', ');
  return (
    `functions ${f2(functionsCpu(split))} s (threads: ${byFunction || 'none'}; ffmpeg children ${f2(split.children)}) | ` +
    `runtime ${f2(runtimeCpu(split))} s (main thread ${f2(split.main)}, V8/libuv threads ${f2(split.shared)})`
  );
}
