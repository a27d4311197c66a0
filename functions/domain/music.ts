/**
 * A video's music: a bed under the voices, from a caller's audio (or video) file or one of our presets. It is mixed
 * once into the joined video at assembly (functions/assemble/music.ts), so it changes no clip and is not part of
 * any clip's render-cache key.
 */
import JSON5 from 'json5';
import { z } from 'zod';
import { MUSIC_DEFAULT_VOLUME, MUSIC_PRESETS, type MusicPreset } from './choices.ts';
import { volumeSchema } from './clip.ts';
import { httpUrlSchema } from './field-schemas.ts';

const presetSchema = z
  .string({ error: `must be one of ${MUSIC_PRESETS.join(', ')}` })
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(MUSIC_PRESETS, { error: `must be one of ${MUSIC_PRESETS.join(', ')}` }));

/** `music` as given: exactly one of url and preset, and a volume. */
export const musicInputSchema = z
  .strictObject(
    {
      url: httpUrlSchema
        .optional()
        .describe('An audio file (MP3, AAC/M4A, WAV, Ogg Vorbis/Opus) or a video file whose sound is used (MP4/MOV, WebM/MKV).'),
      preset: presetSchema.optional().meta({ type: 'string', enum: [...MUSIC_PRESETS], description: 'A bed the service makes itself.' }),
      volume: volumeSchema.default(MUSIC_DEFAULT_VOLUME).meta({
        docDefault: MUSIC_DEFAULT_VOLUME,
        description: "The music's gain in the pauses, 0 (silent) to 1 (as recorded); under speech it is ducked 18 dB lower.",
      }),
    },
    { error: 'must be an object: {"url": "https://…"} or {"preset": "calm"}, with an optional "volume"' },
  )
  .superRefine((value, ctx) => {
    if (value.url === undefined && value.preset === undefined) ctx.addIssue({ code: 'custom', message: 'give a url or a preset', path: [] });
    if (value.url !== undefined && value.preset !== undefined)
      ctx.addIssue({ code: 'custom', message: 'give a url or a preset, not both', path: ['preset'] });
  });

/** The video's music as stored: where it comes from and its gain in the pauses. */
export type MusicSpec = ({ url: string; preset?: undefined } | { preset: MusicPreset; url?: undefined }) & { volume: number };

/** `music` in a form body is the object as a JSON (or JSON5) string; in a JSON body, the object itself. */
export function readMusicField(value: unknown): unknown {
  if (value === null) return undefined; // no music, as an empty form field (and `logo: null`) say
  if (typeof value !== 'string') return value;
  const text = value.trim();
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON5.parse(text);
    } catch {
      return value; // left as a string: the schema says what music must be
    }
  }
}

/** A validated `music` as stored on the video. */
export function musicSpecOf(input: z.output<typeof musicInputSchema>): MusicSpec {
  return input.url !== undefined ? { url: input.url, volume: input.volume } : { preset: input.preset!, volume: input.volume };
}
