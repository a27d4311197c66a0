/**
 * How many ffmpeg runs a background's inspection starts (each forks the whole process): a moving picture with its
 * sound is identified and decoded in two runs, and bytes an account had inspected before in this environment are
 * not inspected again. The verdict is kept by content and account: other bytes under a known name, or the same
 * bytes from another account, are inspected afresh.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobFailedError } from '#domain/errors';
import { PictureBudget } from '#domain/picture-budget';
import { inspectBackground } from '#functions/media/background-media.ts';
import { mediaRunsStarted, runFfmpeg } from '#functions/media/media.ts';
import { fetchedBackground } from '#functions/render/background.ts';
import { workDirs } from '../../support/media-pipeline.ts';

const dir = workDirs();

/** A 2-s 160x120 clip: MP4 (or MPEG-TS), with a tone unless `silent`; `hue` makes other bytes. */
async function clip(path: string, { silent = false, hue = 0, format = 'mp4' } = {}): Promise<string> {
  const sound = silent ? [] : ['-f', 'lavfi', '-i', 'sine=f=440:d=2'];
  await runFfmpeg(
    ['-f', 'lavfi', '-i', `testsrc=s=160x120:r=30:d=2,hue=h=${hue}`, ...sound, '-c:v', 'libx264', '-preset', 'ultrafast', '-f', format, '-y', path],
    { budgetSeconds: 60 },
  );
  return path;
}

/** The bucket: each key is a local file, copied out as S3's getToFile does. */
const bucketOf = (files: Record<string, string>) => ({
  getToFile: async (key: string, path: string) => {
    copyFileSync(files[key]!, path);
    return true;
  },
});

/** The ffmpeg runs `act` starts, and what it returned. */
async function counted<T>(act: () => Promise<T>): Promise<{ runs: number; result: T }> {
  const before = mediaRunsStarted();
  const result = await act();
  return { runs: mediaRunsStarted() - before, result };
}

describe("a background's inspection", () => {
  it('identifies a video with sound and decodes both streams in two ffmpeg runs', async () => {
    const d = dir();
    const path = await clip(join(d, 'b.mp4'));
    const inspected = await counted(() => inspectBackground(path, d));
    expect(inspected.runs).toBe(2);
    expect(inspected.result).toMatchObject({ width: 160, height: 120, hasAudio: true, format: { demuxer: 'mov' } });
    const silent = await counted(async () => inspectBackground(await clip(join(d, 'c.mp4'), { silent: true }), d));
    expect(silent.runs).toBe(3); // the clip's own encode, then two
    expect(silent.result.hasAudio).toBe(false);
  });

  it("is not run again on bytes the account had inspected, under any name; other bytes and other accounts' are", async () => {
    const d = dir();
    const files = { one: await clip(join(d, 'one.mp4')), again: join(d, 'again.mp4'), other: await clip(join(d, 'other.mp4'), { hue: 90 }) };
    copyFileSync(files.one, files.again);
    const bucket = bucketOf(files);
    const inspect = (key: string, account: string, budget = new PictureBudget()) =>
      counted(() => fetchedBackground(bucket, key, join(dir(), 'background'), d, budget, account));

    const first = await inspect('one', 'acct-a');
    expect(first.runs).toBe(2);
    const again = await inspect('again', 'acct-a');
    expect(again.runs).toBe(0);
    expect(again.result).toEqual({ ...first.result, path: again.result.path });
    expect((await inspect('other', 'acct-a')).runs).toBe(2);
    expect((await inspect('one', 'acct-b')).runs).toBe(2);
    // A kept verdict still counts the picture against the clip's budget.
    await expect(inspect('again', 'acct-a', new PictureBudget(100))).rejects.toBeInstanceOf(JobFailedError);
  });

  it('remuxes a known MPEG-TS background again for each render (its copy is in the render’s own work dir)', async () => {
    const d = dir();
    const bucket = bucketOf({ ts: await clip(join(d, 'loop.ts'), { format: 'mpegts' }) });
    const first = await fetchedBackground(bucket, 'ts', join(dir(), 'background'), dir(), undefined, 'acct-ts');
    const secondDir = dir();
    const second = await counted(() => fetchedBackground(bucket, 'ts', join(dir(), 'background'), secondDir, undefined, 'acct-ts'));
    expect(first.format.demuxer).toBe('matroska');
    expect(second.runs).toBe(1);
    expect(second.result.path).toBe(join(secondDir, 'background-remuxed.mkv'));
  });
});
