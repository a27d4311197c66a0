/**
 * A URL named by one video under two uses (a background of 200 MiB, a logo of 10 MiB) is fetched under each use's
 * own rules: the object one use stored is never read as the other's, so no limit is skipped by naming the same URL
 * twice (the stored object's key carries its use: domain/fetched-media.ts).
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { limits } from '#domain/limits';
import type { VideoRecord } from '#domain/video';
import { type FetchJobDeps, fetchJob } from '../../../functions/fetcher/fetch-job.ts';

describe('the fetch stage, one URL under two uses', () => {
  it('downloads it again under the logo limit after it was stored as a background', async () => {
    const url = 'https://media.example.com/big.bin';
    const video = {
      videoId: 'vid_a',
      tenantId: 'acct_a',
      status: 'rendering',
      createVideo: true,
      clips: [
        { index: 0, background: url },
        { index: 1, logo: { url } },
      ],
    } as unknown as VideoRecord;
    const stored = new Map<string, number>();
    const downloads: { url: string; maxBytes: number }[] = [];
    const deps = {
      videos: { get: async () => video },
      objects: {
        head: async (key: string) => (stored.has(key) ? { sizeBytes: stored.get(key)!, metadata: {}, lastModified: new Date() } : undefined),
        putFile: async (key: string) => {
          stored.set(key, 150 * 1024 * 1024);
          return { sizeBytes: 150 * 1024 * 1024 };
        },
      },
      renderQueue: { send: async () => undefined },
      assembleQueue: { send: async () => undefined },
      notifyQueue: { send: async () => undefined },
      download: async (u: string, path: string, rules: { maxBytes: number }) => {
        downloads.push({ url: u, maxBytes: rules.maxBytes });
        await writeFile(path, 'x');
        return 1;
      },
      mode: 'local',
    } as unknown as FetchJobDeps;
    await fetchJob.run({ kind: 'fetch-media', tenantId: 'acct_a', videoId: 'vid_a', clipIndex: 0 }, deps);
    await fetchJob.run({ kind: 'fetch-media', tenantId: 'acct_a', videoId: 'vid_a', clipIndex: 1 }, deps);
    expect(downloads).toEqual([
      { url, maxBytes: limits.maxBackgroundBytes },
      { url, maxBytes: limits.maxImageLayerBytes },
    ]);
    expect(stored.size).toBe(2);
  });
});
