/** The work a video still owes, read from its record: the one rule of the sweeper and the local recovery. */

import { describe, expect, it } from 'vitest';
import { pendingDelivery, pendingWork } from '#domain/pending-work';
import { DEFAULT_SHAPE } from '#domain/shape';
import type { VideoRecord } from '#domain/video';

const base: VideoRecord = {
  videoId: 'vid_a',
  tenantId: 'acct_t',
  keyId: 'key_k',
  status: 'rendering',
  createVideo: true,
  shape: DEFAULT_SHAPE,
  webhookUrl: 'https://example.com/hook',
  clips: [],
  clipResults: { '0': { status: 'rendered' }, '1': { status: 'rendering' }, '2': { status: 'queued' } },
  clipCount: 3,
  renderedCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  deadlineAt: 2_000,
  delivery: { state: 'pending', attempts: [] },
};

describe('pendingWork', () => {
  it('renders the clips not yet rendered', () => {
    expect(pendingWork(base, 1_000)).toEqual({
      render: [
        { kind: 'render-clip', tenantId: 'acct_t', videoId: 'vid_a', clipIndex: 1 },
        { kind: 'render-clip', tenantId: 'acct_t', videoId: 'vid_a', clipIndex: 2 },
      ],
    });
  });

  it('assembles a video whose clips are all rendered, after a held lease runs out', () => {
    expect(pendingWork({ ...base, renderedCount: 3 }, 1_000).assemble).toEqual({
      message: { kind: 'assemble', tenantId: 'acct_t', videoId: 'vid_a' },
      delaySeconds: 0,
    });
    expect(pendingWork({ ...base, status: 'assembling', renderedCount: 3, assemblyLeaseUntil: 1_100 }, 1_000).assemble?.delaySeconds).toBe(101);
    expect(pendingWork({ ...base, status: 'assembling', renderedCount: 3, assemblyLeaseUntil: 90_000 }, 1_000).assemble?.delaySeconds).toBe(900);
  });

  it('delivers the event of a finished video until it is delivered or has failed', () => {
    const completed: VideoRecord = {
      ...base,
      status: 'completed',
      delivery: { state: 'delivering', eventId: 'evt_vid_a_completed', attempts: [{ attempt: 1, at: '', durationMs: 1 }] },
    };
    expect(pendingWork(completed, 1_000)).toEqual({
      render: [],
      deliver: { kind: 'deliver', tenantId: 'acct_t', videoId: 'vid_a', eventId: 'evt_vid_a_completed', attempt: 2 },
    });
    expect(pendingDelivery({ ...base, status: 'failed', delivery: { state: 'pending', attempts: [] } })).toEqual({
      kind: 'deliver',
      tenantId: 'acct_t',
      videoId: 'vid_a',
      eventId: 'evt_vid_a_failed',
      attempt: 1,
    });
    expect(pendingWork({ ...completed, delivery: { ...completed.delivery, state: 'delivered' } }, 1_000)).toEqual({ render: [] });
    expect(pendingDelivery({ ...completed, delivery: { ...completed.delivery, state: 'failed' } })).toBeUndefined();
  });
});
