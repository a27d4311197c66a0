/**
 * What a clip shows on top of its picture (`overlays`: text and images, each for a window of the clip's time) and
 * how a video's text looks (`theme`). The schemas validate the request; the types are what clips store.
 */
import { z } from 'zod';
import './zod-messages.ts';
import {
  type BotPosition,
  OVERLAY_DEFAULT_POSITIONS,
  OVERLAY_IMAGE_DEFAULT_SIZE,
  OVERLAY_STYLES,
  type OverlayStyle,
  THEME_DEFAULTS,
  THEME_FONTS,
  type ThemeFont,
} from './choices.ts';
import { httpUrlSchema, positionSchema } from './field-schemas.ts';
import { limits } from './limits.ts';
import { textProblem } from './text-rules.ts';

/** A character a viewer sees: not a space, a control or an invisible format character (zero-width, bidi marks). */
const VISIBLE = /[^\s\p{Cc}\p{Cf}]/u;

/** A text overlay as stored: its position resolved (the style's default when none was given). */
export interface TextOverlay {
  type: 'text';
  text: string;
  style: OverlayStyle;
  /** Seconds from the clip's start. */
  start: number;
  /** Seconds from the clip's start; absent: until the clip ends (an end past it is cut to it when rendered). */
  end?: number;
  position: BotPosition;
}

/** An image overlay as stored: `size` is its width as a share of the frame's width, `opacity` 0..1. */
export interface ImageOverlay {
  type: 'image';
  url: string;
  start: number;
  end?: number;
  position: BotPosition;
  size: number;
  opacity: number;
}

export type Overlay = TextOverlay | ImageOverlay;

/** A video's theme with its defaults applied. */
export interface Theme {
  font: ThemeFont;
  /** #RRGGBB, upper case. */
  primaryColor: string;
  textColor: string;
}

const seconds = (what: string) =>
  z
    .number({ error: `must be a number of seconds from the clip's start` })
    .min(0, `must not be negative`)
    .max(limits.maxOverlaySeconds, `must be at most ${limits.maxOverlaySeconds}`)
    .describe(what);

const window = {
  start: seconds("When the overlay appears, in seconds from the clip's start. Default 0.").default(0),
  end: seconds("When it goes, in seconds from the clip's start; past the clip's end it is cut to it. Default: the clip's end.").optional(),
};

const endAfterStart = (o: { start: number; end?: number }, ctx: z.RefinementCtx) => {
  if (o.end !== undefined && o.end <= o.start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'must be after start' });
};

const textOverlaySchema = z
  .strictObject({
    type: z.literal('text'),
    text: z.string({ error: 'must be text' }).describe(
      `What is shown, exactly as written (no markup is read), in any script. A line break starts a line. At most ${Object.entries(limits.overlayText)
        .map(([style, l]) => `${l.maxChars} characters and ${l.maxLines} lines for ${style}`)
        .join(', ')}.`,
    ),
    style: z.enum(OVERLAY_STYLES, { error: () => `must be one of ${OVERLAY_STYLES.join(', ')}` }),
    ...window,
    position: positionSchema
      .optional()
      .describe(
        `Where it goes: ${OVERLAY_STYLES.map((s) => `${s} ${OVERLAY_DEFAULT_POSITIONS[s]}`).join(', ')} by default. Never under the presenter or the burned captions: moved to the nearest free place.`,
      ),
  })
  .superRefine((o, ctx) => {
    endAfterStart(o, ctx);
    const { maxChars, maxLines } = limits.overlayText[o.style];
    const text = o.text.trim();
    if (!text) ctx.addIssue({ code: 'custom', path: ['text'], message: 'must not be empty' });
    else if (textProblem(text)) ctx.addIssue({ code: 'custom', path: ['text'], message: textProblem(text)! });
    else if (!VISIBLE.test(text)) ctx.addIssue({ code: 'custom', path: ['text'], message: 'must show something: at least one visible character' });
    else if ([...text].length > maxChars)
      ctx.addIssue({ code: 'custom', path: ['text'], message: `must be at most ${maxChars} characters for a ${o.style}` });
    else if (text.split(/\r\n|\r|\n/).length > maxLines)
      ctx.addIssue({ code: 'custom', path: ['text'], message: `must be at most ${maxLines} lines for a ${o.style}` });
  })
  .transform(
    (o): TextOverlay => ({
      type: 'text',
      text: o.text.trim().replace(/\r\n?/g, '\n'),
      style: o.style,
      start: o.start,
      ...(o.end !== undefined && { end: o.end }),
      position: o.position ?? OVERLAY_DEFAULT_POSITIONS[o.style],
    }),
  );

const imageOverlaySchema = z
  .strictObject({
    type: z.literal('image'),
    url: httpUrlSchema.describe('A PNG (its transparency is kept), JPEG or WebP still, fetched when the clip renders, at most 10 MiB (as the logo).'),
    ...window,
    position: positionSchema.optional().describe(`Where it goes. Default ${OVERLAY_DEFAULT_POSITIONS.image}.`),
    size: z
      .number({ error: 'must be a number' })
      .min(limits.minImageLayerSize, `must be between ${limits.minImageLayerSize} and ${limits.maxImageLayerSize}`)
      .max(limits.maxImageLayerSize, `must be between ${limits.minImageLayerSize} and ${limits.maxImageLayerSize}`)
      .default(OVERLAY_IMAGE_DEFAULT_SIZE)
      .describe(
        `Its width as a share of the frame's width, ${limits.minImageLayerSize} to ${limits.maxImageLayerSize}. Default ${OVERLAY_IMAGE_DEFAULT_SIZE}.`,
      ),
    opacity: z
      .number({ error: 'must be a number' })
      .min(0, 'must be between 0 and 1')
      .max(1, 'must be between 0 and 1')
      .default(1)
      .describe('0 (invisible) to 1 (opaque). Default 1.'),
  })
  .superRefine(endAfterStart)
  .transform(
    (o): ImageOverlay => ({
      type: 'image',
      url: o.url,
      start: o.start,
      ...(o.end !== undefined && { end: o.end }),
      position: o.position ?? OVERLAY_DEFAULT_POSITIONS.image,
      size: o.size,
      opacity: o.opacity,
    }),
  );

/** One overlay: `type` says which (a missing or unknown type is named as such). */
const overlaySchema = z.discriminatedUnion('type', [textOverlaySchema, imageOverlaySchema], { error: 'must be text or image' });

export const overlaysSchema = z
  .array(overlaySchema, { error: 'must be an array of overlays' })
  .max(limits.maxOverlays, `must hold at most ${limits.maxOverlays} overlays`)
  .describe(
    `Text and images over the clip's picture, each from start to end (seconds from the clip's start), at most ${limits.maxOverlays}. ` +
      `{"type": "text", "text", "style": ${OVERLAY_STYLES.join(' | ')}, "start", "end", "position"} or {"type": "image", "url", "start", "end", "position", "size", "opacity"}.`,
  );

const colorSchema = z
  .string({ error: 'must be a colour as #RRGGBB' })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #RRGGBB')
  .transform((c) => c.toUpperCase());

/** `theme`: the video's font and colours, for its text overlays and burned captions. */
export const themeSchema = z
  .strictObject({
    font: z
      .string({ error: `must be one of ${THEME_FONTS.join(', ')}` })
      .transform((v) => v.trim().toLowerCase())
      .pipe(z.enum(THEME_FONTS, { error: () => `must be one of ${THEME_FONTS.join(', ')}` }))
      .default(THEME_DEFAULTS.font)
      .meta({ type: 'string', enum: [...THEME_FONTS], description: 'Any letter case.' }),
    primary_color: colorSchema.default(THEME_DEFAULTS.primary_color),
    text_color: colorSchema.default(THEME_DEFAULTS.text_color),
  })
  .transform((t): Theme => ({ font: t.font, primaryColor: t.primary_color, textColor: t.text_color }));

/** The theme of a video that gives none. */
export const DEFAULT_THEME: Theme = { font: THEME_DEFAULTS.font, primaryColor: THEME_DEFAULTS.primary_color, textColor: THEME_DEFAULTS.text_color };

/** How callers read a clip's overlays back: as they would write them. */
export const toPublicOverlay = (o: Overlay) =>
  o.type === 'text'
    ? { type: o.type, text: o.text, style: o.style, start: o.start, end: o.end ?? null, position: o.position }
    : { type: o.type, url: o.url, start: o.start, end: o.end ?? null, position: o.position, size: o.size, opacity: o.opacity };

export const toPublicTheme = (t: Theme) => ({ font: t.font, primary_color: t.primaryColor, text_color: t.textColor });
