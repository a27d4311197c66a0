/** How callers see a clip they kept for reuse (GET /v1/clips). */
import { toPublicOverlay } from '#domain/overlays';
import type { KeptClip } from '#domain/ports';

export const toPublicKeptClip = (clip: KeptClip) => ({
  clip_uid: clip.clipUid,
  clip_name: clip.clipName,
  bot_uid: clip.botUid,
  ...(clip.spec.voice !== undefined && { voice: clip.spec.voice }),
  ...(clip.spec.overlays?.length && { overlays: clip.spec.overlays.map(toPublicOverlay) }),
  kind: clip.createVideo ? 'video' : 'audio',
  // A kept video clip joins only videos of its own shape.
  aspect_ratio: clip.shape.aspectRatio,
  resolution: clip.shape.resolution,
  duration_seconds: clip.durationSeconds,
  created_at: clip.createdAt,
});
