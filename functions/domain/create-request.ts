import JSON5 from 'json5';
import { z } from 'zod';
import './zod-messages.ts';
import {
  BOT_POSITIONS,
  BOT_SIZE_DEFAULT_DOC,
  BOT_SIZES,
  CAPTION_MODES,
  type CaptionMode,
  CLIP_DEFAULTS,
  LOGO_DEFAULTS,
  MUSIC_DEFAULT_VOLUME,
  THEME_DEFAULTS,
} from './choices.ts';
import { booleanLike, type ClipInput, type ClipReference, clipInputSchema, clipReferenceSchema, type Logo, TRANSITION_NAMES } from './clip.ts';
import { type FieldProblem, InvalidRequestError } from './errors.ts';
import { httpUrlSchema, positionSchema } from './field-schemas.ts';
import { jsonSchemaOf } from './json-schema.ts';
import { limits } from './limits.ts';
import { type MusicSpec, musicInputSchema, musicSpecOf, readMusicField } from './music.ts';
import { type Theme, themeSchema } from './overlays.ts';
import { ASPECT_RATIOS, DEFAULT_SHAPE, RESOLUTIONS, type Shape } from './shape.ts';

/** `16:9`, `9:16`, `1:1` (spaces around the colon are forgiven). */
export const aspectRatioSchema = z
  .string()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.enum(ASPECT_RATIOS, { error: () => `must be one of ${ASPECT_RATIOS.join(', ')}` }));

/** `720p`, `1080p`, in any letter case. */
export const resolutionSchema = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(RESOLUTIONS, { error: () => `must be one of ${RESOLUTIONS.join(', ')}` }));

/**
 * `www.website.com/hook` (the interface sample's webhook) is read as https://www.website.com/hook: a webhook
 * without a scheme is taken to mean the secure one.
 */
export function normaliseWebhook(value: string): string {
  const trimmed = value.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/\//, '')}`;
}

/** Keys that could reach an object's prototype if ever merged naively; refused wherever they appear. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A clip list is at most three levels deep (list, clip, transitions list); anything far deeper is refused. */
const MAX_DEPTH = 8;

/** Walks a parsed value without recursion (a deeply nested string must be a 400, not a stack overflow). */
function assertPlainData(root: unknown, rootPath: string) {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: rootPath, depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) throw new InvalidRequestError([{ path, message: 'is nested too deeply' }]);
    if (Array.isArray(value)) for (const [i, v] of value.entries()) stack.push({ value: v, path: `${path}[${i}]`, depth: depth + 1 });
    else
      for (const key of Object.keys(value)) {
        if (RESERVED_KEYS.has(key)) throw new InvalidRequestError([{ path: `${path}.${key}`, message: 'reserved name' }]);
        stack.push({ value: (value as Record<string, unknown>)[key], path: `${path}.${key}`, depth: depth + 1 });
      }
  }
}

/**
 * The `clips` field: an array in a JSON body, or a string holding the array — strict JSON, or the
 * interface sample's form with single-quoted strings ({"bot_uid": 'X'}), which JSON5 reads.
 */
export function parseClipsField(value: unknown): unknown[] {
  let parsed = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!text) throw new InvalidRequestError([{ path: 'clips', message: 'must not be empty' }]);
    try {
      parsed = JSON.parse(text);
    } catch {
      try {
        parsed = JSON5.parse(text);
      } catch (error) {
        // JSON5's parser is recursive: absurd nesting ends in a RangeError, which is the caller's input too.
        const reason = error instanceof RangeError ? 'nested too deeply' : (error as Error).message.replace(/^JSON5: /, '');
        throw new InvalidRequestError([{ path: 'clips', message: `is not a JSON array of clips (${reason})` }]);
      }
    }
  }
  // A lone clip object is taken as a one-clip list, a kindness to hand-written requests.
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) parsed = [parsed];
  if (!Array.isArray(parsed)) throw new InvalidRequestError([{ path: 'clips', message: 'must be an array of clip objects' }]);
  assertPlainData(parsed, 'clips');
  return parsed;
}

export interface CreateVideoCommand {
  webhookUrl: string;
  createVideo: boolean;
  /** The video's aspect ratio and resolution (every clip is rendered in it). */
  shape: Shape;
  /** 'burn': the captions are also drawn into the picture (the caption files are made either way). */
  captions: CaptionMode;
  clips: (ClipInput | ClipReference)[];
  /** An image drawn on every frame of every clip. */
  logo?: Logo;
  /** A bed of music under the whole video (mixed at assembly). */
  music?: MusicSpec;
  /** The video's font and colours (overlays and burned captions); absent: the default theme. */
  theme?: Theme;
}

/**
 * An optional field as forms and JSON clients send it: an empty string is the same as leaving it out. `doc` is
 * what OpenAPI shows, since a lenient parse (trimming, any letter case) has no JSON Schema of its own.
 */
const optionalField = <T extends z.ZodType>(schema: T, doc: Record<string, unknown>) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema).meta(doc);

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

/** A problem found while reading the clips or the logo, with the path our messages give it (`clips[0].text`, `logo.size`). */
type ClipProblemIssue = { fieldPath: string };

/** `clips`: the JSON array (or a string holding it) read and each clip validated, or its problems named. */
function readClips(value: unknown, ctx: z.RefinementCtx): (ClipInput | ClipReference)[] {
  const problem = (fieldPath: string, message: string) => ctx.addIssue({ code: 'custom', message, params: { fieldPath } satisfies ClipProblemIssue });
  if (value === undefined || value === '') {
    problem('clips', 'is required: give at least one clip');
    return [];
  }
  let raw: unknown[];
  try {
    raw = parseClipsField(value);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    for (const p of error.problems) problem(p.path, p.message);
    return [];
  }
  if (raw.length === 0) problem('clips', 'must contain at least one clip');
  if (raw.length > limits.maxClips) problem('clips', `must contain at most ${limits.maxClips} clips`);
  const clips: (ClipInput | ClipReference)[] = [];
  raw.slice(0, limits.maxClips).forEach((clip, index) => {
    const isReference = !!clip && typeof clip === 'object' && 'clip_uid' in clip;
    const result = (isReference ? clipReferenceSchema : clipInputSchema).safeParse(clip);
    if (result.success) clips.push(result.data);
    else
      for (const issue of result.error.issues) {
        const at = issuePath(`clips[${index}]`, issue.path);
        const what = issue.path.includes('overlays') ? 'an overlay' : 'a clip';
        if (issue.code === 'unrecognized_keys') for (const key of issue.keys) problem(`${at}.${key}`, `is not ${what} field`);
        else problem(at, issue.message);
      }
  });
  const synthesised = clips.filter((c): c is ClipInput => !('clip_uid' in c) && c.audio_url === undefined && c.audio_upload === undefined);
  const totalText = synthesised.reduce((n, c) => n + (c.text?.length ?? 0), 0);
  if (totalText > limits.maxTotalTextChars)
    problem('clips', `the synthesised clips' text totals ${totalText} characters; at most ${limits.maxTotalTextChars} are allowed`);
  const transcripts = clips.filter((c): c is ClipInput => !('clip_uid' in c) && (c.audio_url !== undefined || c.audio_upload !== undefined));
  const totalTranscript = transcripts.reduce((n, c) => n + (c.text?.length ?? 0), 0);
  if (totalTranscript > limits.maxTotalTranscriptChars)
    problem(
      'clips',
      `the recordings' transcripts total ${totalTranscript} characters; at most ${limits.maxTotalTranscriptChars} are allowed (30 minutes of fast speech, the longest a video lasts)`,
    );
  return clips;
}

const { minImageLayerSize: minSize, maxImageLayerSize: maxSize } = limits;

/** The video's `logo`: an image drawn on every frame, in a corner (or another position) inside the safe margins. */
const logoSchema = z.strictObject(
  {
    url: httpUrlSchema.describe(
      'The image: PNG (its transparency is kept), JPEG or WebP; a still, not animated. Fetched like a background, at most 10 MiB.',
    ),
    position: positionSchema.default(LOGO_DEFAULTS.position).meta({
      type: 'string',
      enum: [...BOT_POSITIONS],
      docDefault: LOGO_DEFAULTS.position,
      description: "Where it is drawn, a safe margin in from the frame's edges (underscores and any case accepted).",
    }),
    size: z
      .number()
      .min(minSize, `must be between ${minSize} and ${maxSize}`)
      .max(maxSize, `must be between ${minSize} and ${maxSize}`)
      .default(LOGO_DEFAULTS.size)
      .describe(
        "The logo's width as a share of the frame's longer side (its width in 16:9 and 1:1, its height in 9:16; its height follows the image's proportions).",
      ),
    opacity: z
      .number()
      .min(0, 'must be between 0 and 1')
      .max(1, 'must be between 0 and 1')
      .default(LOGO_DEFAULTS.opacity)
      .describe('0 (invisible) to 1 (the image as it is).'),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object like {"url": "https://…"}, or a string of its JSON' : undefined) },
);

/**
 * `logo`: an object in a JSON body, or a string of its JSON (a form field), validated, or its problems named with
 * their paths (`logo.size`). Empty, null or absent: no logo.
 */
function readLogo(value: unknown, ctx: z.RefinementCtx): Logo | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed = value;
  if (typeof value === 'string')
    try {
      parsed = JSON.parse(value);
    } catch {
      // Not JSON: the object refuses the string as it is.
    }
  const result = logoSchema.safeParse(parsed);
  if (result.success) return result.data;
  const problem = (fieldPath: string, message: string) => ctx.addIssue({ code: 'custom', message, params: { fieldPath } satisfies ClipProblemIssue });
  for (const issue of result.error.issues) {
    const at = issuePath('logo', issue.path);
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) problem(`${at}.${key}`, 'is not a logo field');
    else problem(at, issue.message);
  }
  return undefined;
}

const clipsDoc = jsonSchemaOf(z.array(z.union([clipInputSchema, clipReferenceSchema])));

/**
 * The create request: the one schema that validates it (parseCreateVideo) and that the OpenAPI document is
 * generated from (functions/api/openapi.ts). Lenient as the interface's sample needs: form strings for booleans,
 * a scheme-less webhook, `clips` as a string of JSON or JSON5, any letter case for words.
 */
export const createRequestSchema = z
  .object({
    webhook: z
      .preprocess(
        (value) => (value === '' ? undefined : value),
        z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string URL') }).transform((value, ctx) => {
          // One problem per webhook: the first the URL rule finds.
          const url = httpUrlSchema.safeParse(normaliseWebhook(value));
          if (url.success) return url.data;
          ctx.addIssue({ code: 'custom', message: url.error.issues[0]?.message ?? 'is not a valid URL' });
          return z.NEVER;
        }),
      )
      .meta({ type: 'string', description: 'Address notified when the video is ready. A scheme-less address is read as https://.' }),
    process_done_webhook: z.unknown().optional().meta({ type: 'string', description: "Alias of webhook (the public client's name)." }),
    create_video: optionalField(z.union(booleanLike.options, { error: 'must be true, false, 1 or 0' }).default(true), {
      ...jsonSchemaOf(booleanLike),
      docDefault: true,
      description: 'true: a video; false: the voice only (MP3).',
    }),
    aspect_ratio: optionalField(
      z
        .string({ error: oneOf(ASPECT_RATIOS) })
        .pipe(aspectRatioSchema)
        .default(DEFAULT_SHAPE.aspectRatio),
      {
        type: 'string',
        enum: [...ASPECT_RATIOS],
        docDefault: DEFAULT_SHAPE.aspectRatio,
        description:
          "The video's shape: 16:9 (landscape), 9:16 (vertical) or 1:1 (square). Every clip is rendered in it; a kept clip (clip_uid) must have been made in it.",
      },
    ),
    resolution: optionalField(
      z
        .string({ error: oneOf(RESOLUTIONS) })
        .pipe(resolutionSchema)
        .default(DEFAULT_SHAPE.resolution),
      {
        type: 'string',
        enum: [...RESOLUTIONS],
        docDefault: DEFAULT_SHAPE.resolution,
        description: "The frame's shorter side: 720p (1280x720, 720x1280, 720x720) or 1080p (1920x1080, 1080x1920, 1080x1080).",
      },
    ),
    captions: optionalField(
      z
        .string({ error: oneOf(CAPTION_MODES) })
        .transform((v) => v.trim().toLowerCase())
        .pipe(z.enum(CAPTION_MODES, { error: oneOf(CAPTION_MODES) }))
        .default('none'),
      {
        type: 'string',
        enum: [...CAPTION_MODES],
        docDefault: 'none',
        description:
          'burn: the captions are also drawn into the picture. Either way the finished video links its captions as WebVTT and SRT (output.captions).',
      },
    ),
    logo: z
      .unknown()
      .transform(readLogo)
      .optional()
      .meta({
        anyOf: [jsonSchemaOf(logoSchema), { type: 'string', description: 'The same object as a string of JSON (a form field).' }],
        description: `An image drawn on every frame of every clip, over the presenter. Defaults: ${JSON.stringify(LOGO_DEFAULTS)}.`,
      }),
    music: optionalField(z.preprocess(readMusicField, musicInputSchema.optional()), {
      anyOf: [{ type: 'string', description: 'The same object as a string of JSON (a form body).' }, jsonSchemaOf(musicInputSchema)],
      description:
        'Music under the whole video: {"url": "https://…"} (an audio file, or a video whose sound is used) or {"preset": "calm"}, ' +
        `with "volume" 0-1 (default ${MUSIC_DEFAULT_VOLUME}). Looped to the video's length, faded in and out, ducked under the speech. ` +
        'In a form body, the object as a JSON string.',
    }),
    theme: optionalField(
      z.preprocess((value, ctx) => {
        // A form sends the object as a string of JSON, as it sends clips; null is no theme, as for the logo.
        if (value === null) return undefined;
        if (typeof value !== 'string') return value;
        try {
          return JSON.parse(value);
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be a JSON object: {"font", "primary_color", "text_color"}' });
          return z.NEVER;
        }
      }, themeSchema.optional()),
      {
        ...jsonSchemaOf(themeSchema),
        description: `The video's font and colours, for its text overlays and its burned captions. Defaults: ${JSON.stringify(THEME_DEFAULTS)}.`,
      },
    ),
    clips: z
      .unknown()
      .transform(readClips)
      .meta({
        anyOf: [{ type: 'string', description: 'The same array as a string: strict JSON, or with single-quoted strings (JSON5).' }, clipsDoc],
        description:
          `The clips, 1 to ${limits.maxClips}. Positions: ${BOT_POSITIONS.join(', ')}. Bot sizes: ${BOT_SIZES.join(', ')}. Transitions: ${TRANSITION_NAMES.join(', ')}. ` +
          `Defaults: ${JSON.stringify({ ...CLIP_DEFAULTS, bot_size: BOT_SIZE_DEFAULT_DOC, bot_position: "the bot's default_position" })}.`,
      }),
  })
  .meta({ description: 'Create a video', required: ['webhook', 'clips'] });

const fieldPathOf = (issue: z.core.$ZodIssue): string =>
  (issue as { params?: ClipProblemIssue }).params?.fieldPath ?? issuePath(String(issue.path[0] ?? ''), issue.path.slice(1));

/** The public client's name for the webhook is read as the webhook, and must not contradict it. */
function webhookAlias(fields: Record<string, unknown>): { webhook: unknown; problems: FieldProblem[] } {
  const { webhook, process_done_webhook: alias } = fields;
  const problems: FieldProblem[] =
    webhook !== undefined && alias !== undefined && webhook !== alias
      ? [{ path: 'webhook', message: 'webhook and process_done_webhook are both given and differ' }]
      : [];
  return { webhook: webhook ?? alias, problems };
}

/** A zod issue as the problems we report: an unknown key of an object field is named by its own path. */
const problemsOf = (issue: z.core.$ZodIssue): FieldProblem[] =>
  issue.code === 'unrecognized_keys'
    ? issue.keys.map((key) => ({ path: `${fieldPathOf(issue)}.${key}`, message: `is not a field of ${fieldPathOf(issue)}` }))
    : [{ path: fieldPathOf(issue), message: issue.message }];

const issuePath = (prefix: string, path: PropertyKey[]) =>
  path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`), prefix);

/** Validates the create fields (already decoded from JSON or a form) into a command, or throws InvalidRequestError. */
export function parseCreateVideo(fields: Record<string, unknown>): CreateVideoCommand {
  const { webhook, problems } = webhookAlias(fields);
  const result = createRequestSchema.safeParse({ ...fields, webhook });
  if (!result.success) problems.push(...result.error.issues.flatMap(problemsOf));
  if (result.success && result.data.captions === 'burn')
    result.data.clips.forEach((clip, i) => {
      if ('bot_uid' in clip && clip.text === undefined)
        problems.push({ path: `clips[${i}].text`, message: "is required for captions: give the recording's transcript, or leave captions out" });
    });
  if (problems.length || !result.success) throw new InvalidRequestError(problems);
  const { data } = result;
  return {
    webhookUrl: data.webhook,
    createVideo: data.create_video,
    shape: { aspectRatio: data.aspect_ratio, resolution: data.resolution },
    captions: data.captions,
    clips: data.clips,
    ...(data.logo && { logo: data.logo }),
    ...(data.music && { music: musicSpecOf(data.music) }),
    ...(data.theme && { theme: data.theme }),
  };
}
