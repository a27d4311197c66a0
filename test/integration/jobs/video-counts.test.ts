import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { DEFAULT_SHAPE } from '#domain/shape';
import type { VideoRecord } from '#domain/video';
import { startDynamo } from '../../support/dynamo.ts';

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let videos: DynamoVideoRepository;

const video = (videoId: string, tenantId: string, status: VideoRecord['status'], createdAt: string): VideoRecord => ({
  videoId,
  tenantId,
  keyId: 'key_1',
  status,
  createVideo: true,
  shape: DEFAULT_SHAPE,
  webhookUrl: 'https://e.com/h',
  clips: [],
  clipResults: {},
  clipCount: 0,
  renderedCount: 0,
  createdAt,
  updatedAt: createdAt,
  deadlineAt: 0,
  delivery: { state: 'pending', attempts: [] },
});

beforeAll(async () => {
  dynamo = await startDynamo();
  videos = new DynamoVideoRepository(dynamo.client, 'videos');
  await videos.create(video('vid_a1', 'acct_a', 'queued', '2026-11-01T00:00:00Z'));
  await videos.create(video('vid_a2', 'acct_a', 'completed', '2026-11-02T00:00:00Z'));
  await videos.create(video('vid_a3', 'acct_a', 'failed', '2026-11-03T00:00:00Z'));
  await videos.create(video('vid_b1', 'acct_b', 'queued', '2026-11-03T00:00:00Z'));
});
afterAll(() => dynamo.stop());

it("counts an account's videos by status, and only that account's", async () => {
  expect(await videos.countByStatus('acct_a', 100)).toEqual({
    counts: { queued: 1, rendering: 0, assembling: 0, completed: 1, failed: 1 },
    complete: true,
  });
});

it('stops at the cap, counting the newest, and says the count is incomplete', async () => {
  const { counts, complete } = await videos.countByStatus('acct_a', 2);
  expect(complete).toBe(false);
  expect(counts).toMatchObject({ failed: 1, completed: 1, queued: 0 });
});

describe('countInProgress (the limit of videos in progress)', () => {
  beforeAll(async () => {
    await videos.create(video('vid_c1', 'acct_c', 'queued', '2026-11-10T10:00:00Z'));
    await videos.create(video('vid_c2', 'acct_c', 'rendering', '2026-11-10T10:10:00Z'));
    await videos.create(video('vid_c3', 'acct_c', 'assembling', '2026-11-10T10:20:00Z'));
    await videos.create({ ...video('vid_c4', 'acct_c', 'completed', '2026-11-10T10:30:00Z'), delivery: { state: 'delivered', attempts: [] } });
    await videos.create({ ...video('vid_c5', 'acct_c', 'failed', '2026-11-10T10:40:00Z'), delivery: { state: 'failed', attempts: [] } });
    // Finished, its event still on its way (a hanging webhook): still work of the account.
    await videos.create({ ...video('vid_c6', 'acct_c', 'failed', '2026-11-10T10:50:00Z'), delivery: { state: 'delivering', attempts: [] } });
    // Created before the window: past its deadline, the sweeper's to fail.
    await videos.create(video('vid_c0', 'acct_c', 'rendering', '2026-11-10T08:00:00Z'));
  });

  it("counts the account's queued, rendering and assembling videos, and finished ones still delivering their event, created since the given time", async () => {
    expect(await videos.countInProgress('acct_c', '2026-11-10T09:50:00Z', 100)).toBe(4);
    expect(await videos.countInProgress('acct_c', '2026-11-10T10:05:00Z', 100)).toBe(3);
    expect(await videos.countInProgress('acct_c', '2026-11-10T07:00:00Z', 100)).toBe(5);
    expect(await videos.countInProgress('acct_nobody', '2026-11-10T07:00:00Z', 100)).toBe(0);
  });

  it('does not count other accounts', async () => {
    expect(await videos.countInProgress('acct_b', '2026-11-01T00:00:00Z', 100)).toBe(1);
  });
});
