import type { ClipSpec } from '#domain/clip';
import { DEFAULT_SHAPE } from '#domain/shape';
import type { VideoRecord } from '#domain/video';

const clip = (index: number, name: string): ClipSpec => ({
  index,
  clipName: name,
  botUid: `bot_${index}`,
  text: `text ${index}`,
  position: 'bottom-right',
  removeBotBackground: false,
  backgroundVolume: 0.2,
  transitions: {},
  reusable: false,
});

/** A completed two-clip video; override fields for other outcomes. */
export function videoRecord(overrides: Partial<VideoRecord> = {}): VideoRecord {
  return {
    videoId: 'vid_123',
    tenantId: 'acct_1',
    keyId: 'key_1',
    status: 'completed',
    createVideo: true,
    shape: DEFAULT_SHAPE,
    webhookUrl: 'https://hooks.example.com/vidbot',
    clips: [clip(0, 'intro'), clip(1, 'outro')],
    clipResults: {
      '0': { status: 'rendered', durationSeconds: 4.2, contentHash: 'h0', objectKey: 'clips/h0.mp4' },
      '1': { status: 'rendered', durationSeconds: 3.1, contentHash: 'h1', objectKey: 'clips/h1.mp4', cached: true },
    },
    clipCount: 2,
    renderedCount: 2,
    createdAt: '2025-01-01T12:00:00.000Z',
    updatedAt: '2025-01-01T12:01:00.000Z',
    completedAt: '2025-01-01T12:01:00.000Z',
    deadlineAt: 1735736400,
    output: {
      kind: 'video',
      objectKey: 'videos/vid_123.mp4',
      contentType: 'video/mp4',
      durationSeconds: 7.3,
      sizeBytes: 1_234_567,
      clipDurations: [4.2, 3.1],
    },
    delivery: { state: 'pending', attempts: [] },
    ...overrides,
  };
}
