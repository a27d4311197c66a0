/**
 * What the API accepts, in one place: each field's values here, its control in components/Composer.tsx or
 * ClipEditor.tsx, and its field in request.ts, which sends only what differs from the API's defaults.
 */

export const LIMITS = { textPerClip: 2000, textPerVideo: 10000, clips: 10, clipName: 100 } as const;

/** The frame shapes the API renders (`aspect_ratio`); the first is its default. */
export const FRAME_SHAPES = [
  { id: '16:9', label: '16:9 landscape', width: 16, height: 9 },
  { id: '9:16', label: '9:16 portrait', width: 9, height: 16 },
  { id: '1:1', label: '1:1 square', width: 1, height: 1 },
] as const;
export type FrameShape = (typeof FRAME_SHAPES)[number];
export const frameShape = (id: string): FrameShape => FRAME_SHAPES.find((s) => s.id === id) ?? FRAME_SHAPES[0];

/** `resolution`: the frame's short side in pixels; the first is the API's default. */
export const RESOLUTIONS = [
  { id: '720p', label: '720p', short: 720 },
  { id: '1080p', label: '1080p', short: 1080 },
] as const;

/** The frame in pixels, as the API renders it: 16:9 720p is 1280x720, 9:16 1080p is 1080x1920. */
export function frameSize(shapeId: string, resolutionId: string): { width: number; height: number } {
  const shape = frameShape(shapeId);
  const short = (RESOLUTIONS.find((r) => r.id === resolutionId) ?? RESOLUTIONS[0]).short;
  const long = Math.round((short * Math.max(shape.width, shape.height)) / Math.min(shape.width, shape.height));
  return shape.width >= shape.height ? { width: long, height: short } : { width: short, height: long };
}

/** `captions`: caption files (VTT, SRT) come with every video; "burn" also draws them on the picture. */
export const CAPTIONS = [
  { id: 'none', label: 'Files only (VTT and SRT)' },
  { id: 'burn', label: 'Burned into the picture' },
] as const;

export const VIDEO_DEFAULTS = { aspectRatio: FRAME_SHAPES[0].id, resolution: RESOLUTIONS[0].id, captions: CAPTIONS[0].id } as const;

/** A bot's uid (PUT /v1/bot/{uid}): 3 to 64 of a-z, 0-9, "_" and "-". */
export const BOT_UID = /^[a-z0-9_-]{3,64}$/;
/** The API's ceiling for one uploaded image (through API Gateway on AWS the whole request is capped lower). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const POSITIONS = [
  'top-left', 'top-center', 'top-right',
  'center-left', 'center', 'center-right',
  'bottom-left', 'bottom-center', 'bottom-right',
] as const;

export const ENTRY_TRANSITIONS = ['fade_in', 'slide_in_left', 'slide_in_right', 'slide_in_up', 'wipe_in', 'zoom_in'] as const;
export const EXIT_TRANSITIONS = ['fade_out', 'slide_out_left', 'slide_out_right', 'slide_out_down', 'wipe_out', 'zoom_out'] as const;

export const DEFAULT_BACKGROUND_VOLUME = 0.2;

export const humanize = (name: string) => name.replace(/[_-]/g, ' ');
