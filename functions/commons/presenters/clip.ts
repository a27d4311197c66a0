/** How callers see a clip they kept for reuse (GET /v1/clips). */
import type { KeptClip } from '#domain/ports';

export const toPublicKeptClip = (clip: KeptClip) => ({
  clip_uid: clip.clipUid,
  clip_name: clip.clipName,
  bot_uid: clip.botUid,
  kind: clip.createVideo ? 'video' : 'audio',
  duration_seconds: clip.durationSeconds,
  created_at: clip.createdAt,
});
