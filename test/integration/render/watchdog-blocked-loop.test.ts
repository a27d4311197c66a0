import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isTransientError } from '#commons/net/transient';
import { MediaToolError, readFrames, runFfmpeg } from '#media/media';

/**
 * Review finding: the ffmpeg watchdog's timers fire before a blocked event loop reads the run's progress and exit,
 * so a run that finished while the loop was busy (a 600-s recording's DTW warp runs synchronously for many seconds,
 * while the background's inspection and remux run beside it: clip-job.ts clipMediaOf) is reported as stalled.
 */
describe('runFfmpeg while the event loop is blocked', () => {
  it('a run that finished during a long synchronous computation is not reported as stalled', async () => {
    const run = runFfmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '0.2', '-f', 'null', '-'], {
      budgetSeconds: 60,
      stallSeconds: 2,
    });
    // Stands in for warp()/mfccFrames() on a long recording: synchronous CPU work longer than the stall limit.
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      /* busy */
    }
    await expect(run).resolves.toMatchObject({ exitCode: 0 });
  }, 20_000);

  it('a frame read that finished during a long synchronous computation is not reported as over its budget', async () => {
    const reader = readFrames(['-f', 'lavfi', '-i', 'color=c=red:s=4x4:r=10', '-t', '0.3', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], 64, {
      budgetSeconds: 1,
    });
    // The render's thread drawing frames while the footage is read beside it.
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      /* busy */
    }
    const frames: Buffer[] = [];
    for (let frame = await reader.next(); frame; frame = await reader.next()) frames.push(Buffer.from(frame));
    expect(frames).toHaveLength(3);
  }, 20_000);

  it('a frame read still running at its budget is stopped', async () => {
    const reader = readFrames(
      ['-re', '-f', 'lavfi', '-i', 'color=c=red:s=4x4:r=10', '-t', '30', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'],
      64,
      {
        budgetSeconds: 1,
      },
    );
    const read = async () => {
      for (let frame = await reader.next(); frame; frame = await reader.next());
    };
    await expect(read()).rejects.toThrow('media run exceeded its 1 s budget');
  }, 20_000);
});

describe('readFrames when its ffmpeg is killed from outside', () => {
  it('fails the read with a transient MediaToolError (the OOM killer), not an early end of the frames', async () => {
    // A colour no other run here uses, to find this run's ffmpeg among the machine's.
    const marker = 'color=c=0x5a17e3:s=4x4:r=10';
    const reader = readFrames(['-re', '-f', 'lavfi', '-i', marker, '-t', '30', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], 64, {
      budgetSeconds: 60,
    });
    expect(await reader.next()).toHaveLength(64);
    // This process's own child: another run of this test elsewhere on the machine has its own.
    const pid = Number(
      execFileSync('pgrep', ['-P', String(process.pid), '-f', '0x5a17e3'], { encoding: 'utf8' })
        .trim()
        .split('\n')[0],
    );
    process.kill(pid, 'SIGKILL');
    const read = async () => {
      for (let frame = await reader.next(); frame; frame = await reader.next());
    };
    const error = await read().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MediaToolError);
    expect(error).toMatchObject({ signal: 'SIGKILL' });
    expect(isTransientError(error)).toBe(true);
  }, 20_000);
});
