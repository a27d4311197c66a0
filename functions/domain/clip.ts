import { z } from 'zod';
import './zod-messages.ts';
import type { PinnedBot } from './account-bot.ts';
import {
  BOT_POSITIONS,
  BOT_SIZE_DEFAULT_DOC,
  BOT_SIZES,
  type BotPosition,
  type BotSize,
  CLIP_DEFAULTS,
  ENTRY_TRANSITIONS,
  EXIT_TRANSITIONS,
} from './choices.ts';
import { httpUrlSchema, positionSchema } from './field-schemas.ts';
import { limits } from './limits.ts';
import { type Overlay, overlaysSchema, type Theme } from './overlays.ts';
import { SPEECH_MARKUP_LIMITS, shownText, speechMarkupProblem } from './speech-markup.ts';
import { nameProblem, nameSchema, refuseWith, textProblem } from './text-rules.ts';
import { UPLOAD_ID } from './upload-id.ts';

/** How a video bot's footage covers a clip: its base loop, or the recording from its start, once (ClipSpec.footage). */
const FOOTAGE_MODES = ['loop', 'as_recorded'] as const;

type EntryTransition = (typeof ENTRY_TRANSITIONS)[number];
type ExitTransition = (typeof EXIT_TRANSITIONS)[number];
export const TRANSITION_NAMES: readonly string[] = [...ENTRY_TRANSITIONS, ...EXIT_TRANSITIONS];
/** Seconds each transition adds to its clip (a clip lasts as long as its speech plus its transitions). */
export const TRANSITION_SECONDS = 0.6;

/**
 * When a video's poster is taken, in its first clip: half a second after its entry transition, when the
 * presenter is fully in view (never past the clip's end).
 */
export const posterSecondsOf = (transitions: Transitions, durationSeconds: number): number =>
  Math.max(0, Math.min((transitions.entry ? TRANSITION_SECONDS : 0) + 0.5, durationSeconds - 0.1));

export interface Transitions {
  entry?: EntryTransition;
  exit?: ExitTransition;
}

/** true/false, "true"/"false" in any case, 1/0 and "1"/"0": how forms and JSON clients spell booleans. */
export const booleanLike = z.union(
  [
    z.boolean(),
    z.enum(['true', 'false', '1', '0', 'TRUE', 'FALSE', 'True', 'False']).transform((v) => v === '1' || v.toLowerCase() === 'true'),
    z.union([z.literal(1), z.literal(0)]).transform((v) => v === 1),
  ],
  { error: 'must be true or false' },
);

/** A bot size in any letter case, normalised to lower case. */
const botSizeSchema = z
  .string({ error: () => `must be one of ${BOT_SIZES.join(', ')}` })
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.enum(BOT_SIZES, { error: () => `must be one of ${BOT_SIZES.join(', ')}` }));

/** "fade_in fade_out" (or "fade-in fade-out", or an array of names in a JSON body) to {entry, exit}. */
const transitionsSchema = z.union([z.string().max(200), z.array(z.string().max(50)).max(2)]).transform((value, ctx): Transitions => {
  const names = (Array.isArray(value) ? value : value.split(/\s+/)).map((n) => n.trim().toLowerCase().replace(/-/g, '_')).filter(Boolean);
  const result: Transitions = {};
  for (const name of names) {
    if ((ENTRY_TRANSITIONS as readonly string[]).includes(name)) {
      if (result.entry) ctx.addIssue({ code: 'custom', message: `more than one entry transition ("${result.entry}" and "${name}")` });
      result.entry = name as EntryTransition;
    } else if ((EXIT_TRANSITIONS as readonly string[]).includes(name)) {
      if (result.exit) ctx.addIssue({ code: 'custom', message: `more than one exit transition ("${result.exit}" and "${name}")` });
      result.exit = name as ExitTransition;
    } else {
      ctx.addIssue({ code: 'custom', message: `unknown transition "${name}"; allowed: ${TRANSITION_NAMES.join(', ')}` });
    }
  }
  return result;
});

export const volumeSchema = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d*\.?\d+$/, 'must be a number')
        .transform(Number),
    ],
    { error: 'must be a number between 0 and 1' },
  )
  .pipe(z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'));

/**
 * Something a voice can say: a letter or a digit, in any script. Text of only zero-width characters (which
 * trim() keeps), controls, punctuation or symbols would render a silent clip.
 */
const SPEAKABLE = /[\p{L}\p{N}]/u;

// The longest text any clip takes (a recording's transcript); a synthesised clip's is held to maxTextChars below.
const textSchema = z
  .string()
  .max(limits.maxRecordedTranscriptChars, `must be at most ${limits.maxRecordedTranscriptChars} characters`)
  .refine((t) => t.trim().length > 0, 'must not be empty')
  .superRefine((t, ctx) => {
    if (t.trim().length === 0) return;
    const problem = textProblem(t) ?? speechMarkupProblem(t);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    else if (!SPEAKABLE.test(shownText(t))) ctx.addIssue({ code: 'custom', message: 'must contain something to say: at least one letter or digit' });
  })
  .describe(
    `What the bot says (at most ${limits.maxTextChars} characters, markup included; a recording's transcript at most ${limits.maxRecordedTranscriptChars}). May carry <break time="500ms"/> (at most ` +
      `${SPEECH_MARKUP_LIMITS.maxBreakSeconds} s each, ${SPEECH_MARKUP_LIMITS.maxTotalBreakSeconds} s and ${SPEECH_MARKUP_LIMITS.maxBreaks} breaks in all), ` +
      '<emphasis level="strong|moderate|reduced">…</emphasis> and <say-as interpret-as="characters">…</say-as>; &lt; &gt; &amp; &quot; &apos; are read.',
  );

/** A full clip as a caller describes it (interface 2.1). */
const clipFields = z.strictObject({
  bot_uid: z.string().trim().min(1).max(100),
  text: textSchema
    .optional()
    .describe(
      `What the bot says, at most ${limits.maxTextChars} characters (markup included); required without a recording. With audio_url or audio_upload, what the recording says (its transcript: plain words, no markup), at most ${limits.maxRecordedTranscriptChars} characters, aligned to it for the captions and the mouth.`,
    ),
  audio_url: httpUrlSchema
    .optional()
    .describe(
      `A recording the bot speaks instead of a synthesised voice: WAV, MP3, M4A/AAC, Ogg/Opus, WebM or FLAC, at most ${limits.maxRecordedSpeechSeconds} s. Fetched like a background.`,
    ),
  audio_upload: z
    .string()
    .trim()
    .regex(UPLOAD_ID, 'must be an upload_id from POST /v1/uploads')
    .optional()
    .describe('The upload_id of a recording uploaded with POST /v1/uploads (an audio/* content type), instead of audio_url.'),
  voice: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('A voice id from GET /v1/voices (e.g. "espeak:es+f3", "polly:Lucia" where the deployment uses Polly). Default: the bot\'s voice.'),
  bot_position: positionSchema
    .optional()
    .describe(
      `One of ${BOT_POSITIONS.join(', ')} (underscores and any case accepted). Default: the bot's default_position (bottom-center at the full size a clip without background, bot_size or bot_position gets).`,
    ),
  bot_size: botSizeSchema.optional().meta({
    type: 'string',
    enum: [...BOT_SIZES],
    docDefault: BOT_SIZE_DEFAULT_DOC,
    description:
      "How big the presenter is; any letter case. small, medium and large keep bot_position's meaning; full makes the presenter the subject: " +
      'a head-and-shoulders shot in every shape, its eyes 38 % down the frame and the person about 90 % of its height, standing on the ' +
      "bottom edge (its shoulders cut by the sides of a vertical frame), its card carried to the frame's edges unless a background is given, and only bot_position's left/center/right counts. " +
      `Default: ${BOT_SIZE_DEFAULT_DOC}.`,
  }),
  remove_bot_background: booleanLike.default(CLIP_DEFAULTS.remove_bot_background),
  footage: z
    .enum(FOOTAGE_MODES, { error: () => `must be one of ${FOOTAGE_MODES.join(', ')}` })
    .optional()
    .describe(
      'A video bot only: `as_recorded` plays its recording from its start, in order, with the mouth redone for the text (the speech may last ' +
        'at most as long as the recording); `loop` (the default) plays its base footage for as long as the speech.',
    ),
  background: httpUrlSchema.optional().or(z.literal('').transform(() => undefined)),
  background_volume: volumeSchema
    .default(CLIP_DEFAULTS.background_volume)
    .describe("Gain of the background video's own audio under the voice, 0 (silent) to 1 (as recorded)."),
  transitions: transitionsSchema
    .default({})
    .describe(
      `Space-separated: at most one entry (${ENTRY_TRANSITIONS.join(', ')}) and one exit (${EXIT_TRANSITIONS.join(', ')}); hyphens accepted.`,
    ),
  reusable_clip: booleanLike.default(CLIP_DEFAULTS.reusable_clip),
  clip_name: nameSchema(limits.maxClipNameChars).optional(),
  overlays: overlaysSchema.optional(),
});

/**
 * A clip speaks its text (synthesised) or a recording (audio_url or audio_upload, one of them); a recording's text is
 * its transcript, words alone: markup and the lexicon say how to synthesise, and nothing is synthesised.
 */
export const clipInputSchema = clipFields
  .superRefine((clip, ctx) => {
    if (clip.audio_url !== undefined && clip.audio_upload !== undefined)
      ctx.addIssue({ code: 'custom', path: ['audio_upload'], message: 'give audio_url or audio_upload, not both' });
    const recorded = clip.audio_url !== undefined || clip.audio_upload !== undefined;
    if (!recorded && clip.text === undefined)
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'is required (or give audio_url or audio_upload)' });
    if (!recorded && clip.text !== undefined && clip.text.length > limits.maxTextChars)
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: `must be at most ${limits.maxTextChars} characters (a recording's transcript: ${limits.maxRecordedTranscriptChars})`,
      });
    if (recorded && clip.text !== undefined && shownText(clip.text) !== clip.text)
      ctx.addIssue({ code: 'custom', path: ['text'], message: "is a recording's transcript: plain words, without markup" });
  })
  .meta({
    // The refinement above, as the OpenAPI document states it (JSON Schema cannot read a refinement): a clip without
    // a recording needs its text and holds it to maxTextChars; with one, text is the transcript (textSchema's maximum).
    if: { anyOf: [{ required: ['audio_url'] }, { required: ['audio_upload'] }] },
    else: { required: ['text'], properties: { text: { maxLength: limits.maxTextChars } } },
  });

/** Where a clip's recording is. */
export type Recording = { url: string } | { uploadKey: string };

/** A reference to a clip kept earlier with reusable_clip: true. */
export const clipReferenceSchema = z.strictObject({
  clip_uid: z.string().trim().min(1).max(100).superRefine(refuseWith(nameProblem)),
  clip_name: nameSchema(limits.maxClipNameChars).optional(),
});

export type ClipInput = z.output<typeof clipInputSchema>;
export type ClipReference = z.output<typeof clipReferenceSchema>;

/** The video's `logo`, after defaults: an image drawn on every frame of every clip. */
export interface Logo {
  /** Absolute http(s) URL of a PNG, JPEG or WebP image. */
  url: string;
  position: BotPosition;
  /** Its width as a share of the frame's width (limits.minImageLayerSize to maxImageLayerSize). */
  size: number;
  /** 0 (invisible) to 1 (as the image is). */
  opacity: number;
}

/** A clip after validation and defaults: what is stored on the video and handed to the renderer. */
export interface ClipSpec {
  index: number;
  clipName: string;
  botUid: string;
  text: string;
  /** A voice id of the catalog (domain/voices.ts) the clip is spoken with instead of its bot's voice. */
  voice?: string;
  /**
   * The caller's recording the clip speaks instead of a synthesised voice (`text`, if any, is its transcript): a URL
   * fetched through the address guard, or the key of an upload claimed for this video.
   */
  recording?: Recording;
  position: BotPosition;
  /** How big the bot is drawn. Absent on clips stored before sizes existed: `medium`. */
  botSize?: BotSize;
  removeBotBackground: boolean;
  /** A video bot's recording played from its start, once, instead of its base loop. Absent: the loop. */
  footage?: 'as_recorded';
  /** Absolute http(s) URL of the background video, if any. */
  background?: string;
  backgroundVolume: number;
  transitions: Transitions;
  reusable: boolean;
  /** Set when the clip came from a kept clip (clip_uid) rather than a full description. */
  reusedClipUid?: string;
  /** The video's `captions: "burn"`: its captions are drawn into this clip's picture. Absent: not drawn. */
  captions?: 'burn';
  /** The video's logo, drawn on every frame of this clip (a kept clip takes the logo of the video it joins). */
  logo?: Logo;
  /** Text and images over the clip's picture, each for a window of its time. Absent: none. */
  overlays?: Overlay[];
  /** The video's `theme` (its font and colours for overlays and burned captions). Absent: the default theme. */
  theme?: Theme;
  /**
   * For a bot of the account: its look and voice when the video was accepted, which the clip renders with even if
   * the bot is replaced before it renders. Absent for a built-in bot (and on clips accepted before pinning).
   */
  pinnedBot?: PinnedBot;
}
