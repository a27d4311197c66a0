import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { functionsCpu, runtimeCpu, splitBetween, type ThreadSnapshot, ThreadWatch, threadSnapshot } from '../../../infra/scripts/bench/threads.ts';

const snapshot = (threads: [string, string, number][], process: number, children: number): ThreadSnapshot => ({
  threads: new Map(threads.map(([tid, name, ticks]) => [tid, { name, ticks }])),
  process,
  children,
});

describe('the bench CPU split by thread', () => {
  it('counts named threads by function, the main thread, the shared threads, ended threads and children apart', () => {
    // Prepare: the main thread (tid 10), a render worker and espeak-ng's (both fn-render), a V8 thread, one that ends.
    const before = snapshot(
      [
        ['10', 'node', 100],
        ['11', 'node', 50],
        ['20', 'fn-render', 300],
        ['21', 'fn-render', 40],
        ['30', 'node', 7],
      ],
      497,
      1000,
    );
    const after = snapshot(
      [
        ['10', 'node', 150],
        ['11', 'node', 70],
        ['20', 'fn-render', 700],
        ['21', 'fn-render', 90],
        ['22', 'fn-assemble', 30],
      ],
      // Thread 30 ended after 5 more ticks: they are only in the process's total.
      497 + 50 + 20 + 400 + 50 + 30 + 5,
      1800,
    );
    // Act
    const split = splitBetween(before, after, '10');
    // Assess
    expect(split.functions.render).toBeCloseTo(4.5);
    expect(split.functions.assemble).toBeCloseTo(0.3);
    expect(split.children).toBeCloseTo(8);
    expect(split.main).toBeCloseTo(0.5);
    expect(split.shared).toBeCloseTo(0.25);
    expect(functionsCpu(split)).toBeCloseTo(12.8);
    expect(runtimeCpu(split)).toBeCloseTo(0.75);
  });

  it("reads this process's threads, a worker's named thread and the name its own worker inherits", async () => {
    // Prepare: a worker names its thread as the local runtime's do, then starts one of its own that spins.
    const source = `
      const { writeFileSync } = require('node:fs');
      const { Worker, parentPort } = require('node:worker_threads');
      writeFileSync('/proc/thread-self/comm', 'fn-benchtest');
      // It spins until its own thread has used 0.3 s of CPU, however loaded the machine.
      const inner = new Worker(\`
        const { readFileSync } = require('node:fs');
        const ticks = () => readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ').slice(11, 13).reduce((a, b) => a + Number(b), 0);
        while (ticks() < 30);
        require('node:worker_threads').parentPort.postMessage(1);\`, { eval: true });
      inner.on('message', () => parentPort.postMessage('done'));`;
    const before = threadSnapshot();
    const worker = new Worker(source, { eval: true });
    await new Promise((resolve) => worker.once('message', resolve));
    // Act
    const split = splitBetween(before, threadSnapshot());
    await worker.terminate();
    // Assess: the spinning inner worker's 0.3 s count as the function's.
    expect(split.functions.benchtest).toBeGreaterThanOrEqual(0.3);
  });

  it("counts a named thread that ended before the split was read as its function's, up to its last sample", async () => {
    // Prepare: a worker names its thread, spins for 0.3 s of its own CPU, says so, then idles until it is ended.
    const source = `
      const { readFileSync, writeFileSync } = require('node:fs');
      writeFileSync('/proc/thread-self/comm', 'fn-endedtest');
      const ticks = () => readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ').slice(11, 13).reduce((a, b) => a + Number(b), 0);
      while (ticks() < 30);
      require('node:worker_threads').parentPort.postMessage('done');
      setInterval(() => {}, 1000);`;
    const watch = new ThreadWatch(20);
    const worker = new Worker(source, { eval: true });
    await new Promise((resolve) => worker.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Act: the thread is gone when the split is read.
    await worker.terminate();
    const split = watch.stop();
    // Assess
    expect(split.functions.endedtest).toBeGreaterThanOrEqual(0.3);
  });
});
