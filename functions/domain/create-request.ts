import JSON5 from 'json5';
import { z } from 'zod';
import { booleanLike, clipInputSchema, clipReferenceSchema, httpUrlSchema, type ClipInput, type ClipReference } from './clip.ts';
import { CAPTION_MODES, type CaptionMode } from './choices.ts';
import { InvalidRequest, type FieldProblem } from './errors.ts';
import { limits } from './limits.ts';
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
    if (depth >= MAX_DEPTH) throw new InvalidRequest([{ path, message: 'is nested too deeply' }]);
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, path: `${path}[${i}]`, depth: depth + 1 }));
    else
      for (const key of Object.keys(value)) {
        if (RESERVED_KEYS.has(key)) throw new InvalidRequest([{ path: `${path}.${key}`, message: 'reserved name' }]);
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
    if (!text) throw new InvalidRequest([{ path: 'clips', message: 'must not be empty' }]);
    try {
      parsed = JSON.parse(text);
    } catch {
      try {
        parsed = JSON5.parse(text);
      } catch (error) {
        // JSON5's parser is recursive: absurd nesting ends in a RangeError, which is the caller's input too.
        const reason = error instanceof RangeError ? 'nested too deeply' : (error as Error).message.replace(/^JSON5: /, '');
        throw new InvalidRequest([{ path: 'clips', message: `is not a JSON array of clips (${reason})` }]);
      }
    }
  }
  // A lone clip object is taken as a one-clip list, a kindness to hand-written requests.
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) parsed = [parsed];
  if (!Array.isArray(parsed)) throw new InvalidRequest([{ path: 'clips', message: 'must be an array of clip objects' }]);
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
}

const issuePath = (prefix: string, path: PropertyKey[]) =>
  path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`), prefix);

/** Validates the create fields (already decoded from JSON or a form) into a command, or throws InvalidRequest. */
export function parseCreateVideo(fields: Record<string, unknown>): CreateVideoCommand {
  const problems: FieldProblem[] = [];
  const webhookField = fields.webhook ?? fields.process_done_webhook;
  if (fields.webhook !== undefined && fields.process_done_webhook !== undefined && fields.webhook !== fields.process_done_webhook)
    problems.push({ path: 'webhook', message: 'webhook and process_done_webhook are both given and differ' });

  let webhookUrl = '';
  if (webhookField === undefined || webhookField === '') problems.push({ path: 'webhook', message: 'is required' });
  else if (typeof webhookField !== 'string') problems.push({ path: 'webhook', message: 'must be a string URL' });
  else {
    const result = httpUrlSchema.safeParse(normaliseWebhook(webhookField));
    if (result.success) webhookUrl = result.data;
    else problems.push({ path: 'webhook', message: result.error.issues[0]?.message ?? 'is not a valid URL' });
  }

  let createVideo = true;
  if (fields.create_video !== undefined && fields.create_video !== '') {
    const result = booleanLike.safeParse(fields.create_video);
    if (result.success) createVideo = result.data;
    else problems.push({ path: 'create_video', message: 'must be true, false, 1 or 0' });
  }

  const shape: Shape = { ...DEFAULT_SHAPE };
  if (fields.aspect_ratio !== undefined && fields.aspect_ratio !== '') {
    const result = typeof fields.aspect_ratio === 'string' ? aspectRatioSchema.safeParse(fields.aspect_ratio) : undefined;
    if (result?.success) shape.aspectRatio = result.data;
    else problems.push({ path: 'aspect_ratio', message: `must be one of ${ASPECT_RATIOS.join(', ')}` });
  }
  if (fields.resolution !== undefined && fields.resolution !== '') {
    const result = typeof fields.resolution === 'string' ? resolutionSchema.safeParse(fields.resolution) : undefined;
    if (result?.success) shape.resolution = result.data;
    else problems.push({ path: 'resolution', message: `must be one of ${RESOLUTIONS.join(', ')}` });
  }
  let captions: CaptionMode = 'none';
  if (fields.captions !== undefined && fields.captions !== '') {
    const value = typeof fields.captions === 'string' ? fields.captions.trim().toLowerCase() : fields.captions;
    if ((CAPTION_MODES as readonly unknown[]).includes(value)) captions = value as CaptionMode;
    else problems.push({ path: 'captions', message: `must be one of ${CAPTION_MODES.join(', ')}` });
  }

  const clips: (ClipInput | ClipReference)[] = [];
  if (fields.clips === undefined || fields.clips === '') problems.push({ path: 'clips', message: 'is required: give at least one clip' });
  else {
    try {
      const raw = parseClipsField(fields.clips);
      if (raw.length === 0) problems.push({ path: 'clips', message: 'must contain at least one clip' });
      if (raw.length > limits.maxClips) problems.push({ path: 'clips', message: `must contain at most ${limits.maxClips} clips` });
      raw.slice(0, limits.maxClips).forEach((clip, index) => {
        const isReference = !!clip && typeof clip === 'object' && 'clip_uid' in clip;
        const result = (isReference ? clipReferenceSchema : clipInputSchema).safeParse(clip);
        if (result.success) clips.push(result.data);
        else
          for (const issue of result.error.issues) {
            const at = issuePath(`clips[${index}]`, issue.path);
            if (issue.code === 'unrecognized_keys') for (const key of issue.keys) problems.push({ path: `${at}.${key}`, message: 'is not a clip field' });
            else problems.push({ path: at, message: issue.message });
          }
      });
      const totalText = clips.reduce((n, c) => n + ('text' in c ? c.text.length : 0), 0);
      if (totalText > limits.maxTotalTextChars)
        problems.push({ path: 'clips', message: `the clips' text totals ${totalText} characters; at most ${limits.maxTotalTextChars} are allowed` });
    } catch (error) {
      if (!(error instanceof InvalidRequest)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length) throw new InvalidRequest(problems);
  return { webhookUrl, createVideo, shape, captions, clips };
}
