/**
 * A video's shape: its aspect ratio and resolution, chosen once per video (every clip of a video has its
 * frame size, so the clips join by stream copy). The resolution names the frame's shorter side.
 */
export const ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
export const RESOLUTIONS = ['720p', '1080p'] as const;
/** A test key's videos are rendered at this (domain/test-mode.ts); no request asks for it. */
export const TEST_RESOLUTION = '360p';
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export type Resolution = (typeof RESOLUTIONS)[number] | typeof TEST_RESOLUTION;

export interface Shape {
  aspectRatio: AspectRatio;
  resolution: Resolution;
}

/** What every video was before shapes existed, and still is unless the caller asks for another. */
export const DEFAULT_SHAPE = { aspectRatio: '16:9', resolution: '720p' } as const satisfies Shape;

export interface FrameSize {
  width: number;
  height: number;
}

const SHORT_SIDE: Record<Resolution, number> = { '360p': 360, '720p': 720, '1080p': 1080 };

/** 1280x720 / 1920x1080, 720x1280 / 1080x1920, 720x720 / 1080x1080. */
export function frameSizeOf(shape: Shape): FrameSize {
  const short = SHORT_SIDE[shape.resolution];
  const long = Math.round((short * 16) / 9);
  if (shape.aspectRatio === '16:9') return { width: long, height: short };
  if (shape.aspectRatio === '9:16') return { width: short, height: long };
  return { width: short, height: short };
}

export const sameShape = (a: Shape, b: Shape) => a.aspectRatio === b.aspectRatio && a.resolution === b.resolution;

/** "9:16 1080p (1080x1920)": how messages name a shape. */
export function describeShape(shape: Shape): string {
  const { width, height } = frameSizeOf(shape);
  return `${shape.aspectRatio} ${shape.resolution} (${width}x${height})`;
}
