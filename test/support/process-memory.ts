/**
 * The resident memory of this process's children (the ffmpeg runs a render starts), summed, sampled from /proc
 * while some work runs: the peak is what the render function would need beside its own Node heap.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Every live descendant of `root`, from /proc's parent links. */
function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (in parentheses) may hold spaces: the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended while listed
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

const rssBytes = (pid: number): number => {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
};

/** Runs `work` while sampling, every `everyMs`, the summed RSS of this process's descendants; returns its result and the peak. */
export async function peakChildrenRss<T>(work: () => Promise<T>, everyMs = 20): Promise<{ result: T; peakBytes: number; samples: number }> {
  let peakBytes = 0;
  let samples = 0;
  const sample = () => {
    const total = descendantsOf(process.pid).reduce((sum, pid) => sum + rssBytes(pid), 0);
    peakBytes = Math.max(peakBytes, total);
    samples++;
  };
  const timer = setInterval(sample, everyMs);
  try {
    const result = await work();
    return { result, peakBytes, samples };
  } finally {
    clearInterval(timer);
    sample();
  }
}
