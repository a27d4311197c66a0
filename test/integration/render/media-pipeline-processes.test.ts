/**
 * The pinned media pipeline's ffmpeg processes (functions/render/engine/media.ts): the watchdog kills a run over its
 * budget or without progress, leaving nothing running; frames piped to ffmpeg arrive intact.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSITION_SECONDS } from '#domain/clip';
import { limits } from '#domain/limits';
import { budgetFor, MediaBudgetError, runFfmpeg } from '#functions/media/media.ts';
import { functions } from '#infra/wiring.ts';
import { workDirs } from '../../support/media-pipeline.ts';

const dir = workDirs();

/** Is a process still there (and not a zombie)? */
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(execFileSync('cat', [`/proc/${pid}/status`]).toString());

describe('the watchdog', () => {
  it('kills a run over its budget: MediaBudgetError, within a second of the budget, and the process is gone', async () => {
    const started = Date.now();
    let pid: number | undefined;
    const error = await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc=s=640x360:r=30:d=3600', '-f', 'null', '-'], {
      budgetSeconds: 2,
      onSpawn: (p) => (pid = p),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaBudgetError);
    expect((error as MediaBudgetError).reason).toBe('budget');
    expect(Date.now() - started).toBeLessThan(3500);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid!)).toBe(false);
  });

  it('kills a run that makes no progress (an input that never delivers a byte)', async () => {
    const fifo = join(dir(), 'never');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    let pid: number | undefined;
    const error = await runFfmpeg(['-protocol_whitelist', 'file', '-f', 'mpegts', '-i', fifo, '-f', 'null', '-'], {
      budgetSeconds: 60,
      stallSeconds: 2,
      onSpawn: (p) => (pid = p),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaBudgetError);
    expect((error as MediaBudgetError).reason).toBe('stall');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(alive(pid!)).toBe(false);
  });

  it('lets a run that keeps making progress go on past the stall limit', async () => {
    // -progress reports about every half second once encoding runs; 3 s leaves room for a slow start on a busy machine.
    const result = await runFfmpeg(['-re', '-f', 'lavfi', '-i', 'testsrc=s=64x64:r=10:d=7', '-f', 'null', '-'], {
      budgetSeconds: 30,
      stallSeconds: 3,
    });
    expect(result.exitCode).toBe(0);
  });

  it('gives the longest clip a budget that, with its download, probe and remux, ends before the render function does', () => {
    const longest = limits.maxSpeechSeconds + 2 * TRANSITION_SECONDS;
    const fetchProbeRemux = limits.backgroundTimeoutMs / 1000 + 20 + 60;
    expect(budgetFor(longest) + fetchProbeRemux).toBeLessThan(functions.render.timeoutSeconds);
    expect(budgetFor(10)).toBeLessThan(budgetFor(100));
  });

  it("bounds a recording by its own limit, cut at the render's deadline, and a video by the 30 minutes its assembly is sized for", () => {
    expect(limits.maxRecordedSpeechSeconds).toBe(600);
    expect(limits.maxVideoSeconds).toBe(1800);
    expect(limits.maxClips * limits.maxRecordedSpeechSeconds).toBeGreaterThan(limits.maxVideoSeconds);
  });
});

describe('frames piped to ffmpeg', () => {
  it('arrive intact when the caller fills one buffer for every frame (no copy is made, one frame in flight)', async () => {
    const side = 32; // 1 KiB frames: far under the pipe's high-water mark, where a write returns at once
    const shared = Buffer.alloc(side * side);
    const count = 90;
    const { stdout } = await runFfmpeg(
      [
        '-protocol_whitelist',
        'pipe',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        '-s',
        `${side}x${side}`,
        '-r',
        '30',
        '-i',
        'pipe:0',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        '-',
      ],
      { budgetSeconds: 30, captureStdout: true, frames: { count, frame: (i) => shared.fill(i) } },
    );
    expect(stdout.length).toBe(count * side * side);
    for (let i = 0; i < count; i++) {
      const frame = stdout.subarray(i * side * side, (i + 1) * side * side);
      expect(frame.every((v) => v === i)).toBe(true);
    }
  });
});
