/** A test account's videos (domain/test-mode.ts): 360p, marked TEST once per clip, marked test, at most 60 s. */
import { describe, expect, it } from 'vitest';
import { toCreatedVideo } from '#commons/presenters/video';
import { BUILT_IN_BOTS } from '#domain/bot';
import { parseCreateVideo } from '#domain/create-request';
import type { Account, VideoRepository } from '#domain/ports';
import { testVideoTooLong } from '#domain/test-mode';
import type { VideoRecord } from '#domain/video';
import { type CreateVideoDeps, createVideo } from '#domain/videos';

const testAccount: Account = { tenantId: 'acct_t', name: 'Acme (test)', createdAt: '2026-01-01T00:00:00Z', test: true, liveTenantId: 'acct_live' };

async function create(account: Account | undefined, fields: Record<string, unknown>) {
  const stored: VideoRecord[] = [];
  const created = await createVideo(
    parseCreateVideo({ webhook: 'https://e.com/h', ...fields }),
    { tenantId: account?.tenantId ?? 'acct_live', keyId: 'key_1' },
    {
      bots: { list: async () => [...BUILT_IN_BOTS], get: async (uid) => BUILT_IN_BOTS.find((b) => b.uid === uid) },
      accountBots: { get: async () => undefined },
      accounts: { get: async () => account },
      voices: { polly: false },
      videos: { create: async (v: VideoRecord) => void stored.push(v), countInProgress: async () => 0 } as unknown as VideoRepository,
      clips: { get: async () => undefined, put: async () => undefined, list: async () => ({ items: [] }) },
      renderQueue: { send: async () => undefined, sendBatch: async () => undefined },
      now: () => new Date('2026-11-23T00:00:00Z'),
      newVideoId: () => 'vid_new',
    } satisfies CreateVideoDeps,
  );
  return { created, video: stored[0]! };
}

describe('a test account creates test videos', () => {
  it('at 360p whatever was asked, each clip marked TEST once beside its own overlays, and marked test', async () => {
    const overlays = [{ type: 'text', text: 'Hi', style: 'lower_third' }];
    const { created, video } = await create(testAccount, {
      resolution: '1080p',
      aspect_ratio: '9:16',
      clips: [
        { bot_uid: 'bot_ava', text: 'One', overlays },
        { bot_uid: 'bot_otto', text: 'Two' },
      ],
    });
    expect(video.shape).toEqual({ aspectRatio: '9:16', resolution: '360p' });
    expect(video.test).toBe(true);
    expect(video.clips.map((c) => c.overlays?.map((o) => (o.type === 'text' ? o.text : o.url)))).toEqual([['Hi', 'TEST'], ['TEST']]);
    expect(toCreatedVideo(created, 'http://svc').test).toBe(true);
  });

  it('a live account is untouched: its shape, no mark, not test', async () => {
    const { created, video } = await create(undefined, { resolution: '1080p', clips: [{ bot_uid: 'bot_ava', text: 'One' }] });
    expect(video.shape.resolution).toBe('1080p');
    expect(video.test).toBeUndefined();
    expect(video.clips[0]!.overlays).toBeUndefined();
    expect(created.test).toBe(false);
  });

  it('a test video may last 60 s, all clips together', () => {
    expect(testVideoTooLong([30, 30])).toBeUndefined();
    expect(testVideoTooLong([30, 30.5])).toMatch(/at most 60 s; this one's clips last 60.5 s/);
  });
});
