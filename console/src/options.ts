/**
 * What the API accepts, as the console offers it: the values come from the domain (functions/domain), the
 * labels are the console's own. Each field's control is in components/Composer.tsx or ClipEditor.tsx, and its
 * field in request.ts, which sends only what differs from the API's defaults.
 */
import {
  BOT_POSITIONS,
  BOT_SIZES,
  BOT_UID_PATTERN,
  CAPTION_MODES,
  type CaptionMode,
  CLIP_DEFAULTS,
  ENTRY_TRANSITIONS,
  EXIT_TRANSITIONS,
  LOGO_DEFAULTS,
  MUSIC_DEFAULT_VOLUME,
  MUSIC_PRESETS,
  OVERLAY_DEFAULT_POSITIONS,
  OVERLAY_IMAGE_DEFAULT_SIZE,
  OVERLAY_STYLES,
  THEME_DEFAULTS,
  THEME_FONTS,
} from '#domain/choices';
import { limits } from '#domain/limits';
import { ASPECT_RATIOS, type AspectRatio, DEFAULT_SHAPE, frameSizeOf, RESOLUTIONS as RESOLUTION_IDS, type Resolution } from '#domain/shape';

export {
  BOT_SIZES,
  ENTRY_TRANSITIONS,
  EXIT_TRANSITIONS,
  MUSIC_PRESETS,
  OVERLAY_DEFAULT_POSITIONS,
  OVERLAY_IMAGE_DEFAULT_SIZE,
  OVERLAY_STYLES,
  THEME_DEFAULTS,
  THEME_FONTS,
};

export const LIMITS = {
  textPerClip: limits.maxTextChars,
  textPerVideo: limits.maxTotalTextChars,
  clips: limits.maxClips,
  clipName: limits.maxClipNameChars,
} as const;

const SHAPE_LABELS: Record<AspectRatio, string> = { '16:9': 'landscape', '9:16': 'portrait', '1:1': 'square' };

/** The frame shapes the API renders (`aspect_ratio`), its default first. */
export const FRAME_SHAPES = ASPECT_RATIOS.map((id) => {
  const [width, height] = id.split(':').map(Number) as [number, number];
  return { id, label: `${id} ${SHAPE_LABELS[id]}`, width, height };
});
export type FrameShape = (typeof FRAME_SHAPES)[number];
export const frameShape = (id: string): FrameShape => FRAME_SHAPES.find((s) => s.id === id) ?? FRAME_SHAPES[0]!;

/** `resolution`: the frame's short side, its default first. */
export const RESOLUTIONS = RESOLUTION_IDS.map((id) => ({ id, label: id }));

/** The frame in pixels, as the API renders it: 16:9 720p is 1280x720, 9:16 1080p is 1080x1920. */
export function frameSize(shapeId: string, resolutionId: string): { width: number; height: number } {
  const aspectRatio = frameShape(shapeId).id;
  const resolution = (RESOLUTION_IDS as readonly string[]).includes(resolutionId) ? (resolutionId as Resolution) : DEFAULT_SHAPE.resolution;
  return frameSizeOf({ aspectRatio, resolution });
}

const CAPTION_LABELS: Record<CaptionMode, string> = { none: 'Files only (VTT and SRT)', burn: 'Burned into the picture' };
/** `captions`: caption files (VTT, SRT) come with every video; "burn" also draws them on the picture. */
export const CAPTIONS = CAPTION_MODES.map((id) => ({ id, label: CAPTION_LABELS[id] }));

export const VIDEO_DEFAULTS = { aspectRatio: DEFAULT_SHAPE.aspectRatio, resolution: DEFAULT_SHAPE.resolution, captions: CAPTION_MODES[0] } as const;

export const BOT_UID = BOT_UID_PATTERN;
/** The API's ceiling for one uploaded image (through API Gateway on AWS the whole request is capped lower). */
export const MAX_IMAGE_BYTES = limits.maxBotImageBytes;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const POSITIONS = BOT_POSITIONS;

export const DEFAULT_BACKGROUND_VOLUME = CLIP_DEFAULTS.background_volume;

export const humanize = (name: string) => name.replace(/[_-]/g, ' ');

/** `bot_size` when a clip does not say: not sent, the API decides (full without a background or a position, else medium). */
export const DEFAULT_BOT_SIZE = '';

/** The composer's scene before the person chooses anything: no logo, the default theme, no music. */
export const SCENE_DEFAULTS = {
  logoUrl: '',
  logoPosition: LOGO_DEFAULTS.position,
  logoSize: LOGO_DEFAULTS.size,
  logoOpacity: LOGO_DEFAULTS.opacity,
  font: '',
  primaryColor: '',
  textColor: '',
  music: 'none',
  musicPreset: MUSIC_PRESETS[0],
  musicUrl: '',
  musicVolume: MUSIC_DEFAULT_VOLUME,
} as const;

/** The overlays a clip may carry, and an image layer's size range (a share of the frame's width). */
export const OVERLAY_LIMITS = {
  perClip: limits.maxOverlays,
  minImageSize: limits.minImageLayerSize,
  maxImageSize: limits.maxImageLayerSize,
} as const;
