import { describe, expect, it } from 'vitest';
import { runFfmpeg } from '#media/media';

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
});
