import type { Bot } from './bot.ts';
import { withSortedKeys } from './canonical-json.ts';
import type { BotPosition, BotSize, ENTRY_TRANSITIONS, EXIT_TRANSITIONS } from './choices.ts';
import type { ClipSpec, Logo, Transitions } from './clip.ts';
import type { LexiconEntry } from './lexicon.ts';
import { DEFAULT_THEME, type Overlay, type Theme } from './overlays.ts';
import { type FrameSize, frameSizeOf, type Shape } from './shape.ts';
import type { SpeechVoice } from './voices.ts';

/**
 * Everything that changes a clip's sound and, for a video, its pixels, normalised: the renderer reads nothing
 * else, and the render cache's key is its hash (render-cache.ts renderCacheKey). A field that only exists here
 * cannot be left out of the key; one that is not here cannot reach the render.
 *
 * Normalised so that equal renders have equal specs: defaults applied, values that draw nothing left out (no
 * overlays, a theme no text is drawn in or the default theme, a background's volume without a background), and
 * stored maps (whose key order is not kept) in a fixed order. The fields are written in a fixed order too: the
 * key is the JSON of the spec as built here.
 */
export type RenderSpec = VoiceRenderSpec | VideoRenderSpec;

/** What is said, and by whom: the whole of a voice clip. */
interface SpokenSpec {
  /** The raw text, markup included: a break or an emphasis changes the sound. */
  text: string;
  /** The SHA-256 of the clip's own recording as fetched (audio_url, audio_upload). Absent: synthesised. */
  recording?: string;
  /** The account's lexicon entries the text uses (lexicon.ts pronunciationsFor), as [word, say]. Absent: none. */
  pronunciations?: [word: string, say: string][];
  /**
   * The bot's look (its pictures and, through its uid in the look's name, its poses) and the voice actually spoken
   * (voices.ts voiceToSpeak): the clip's own voice, or the bot's Polly or espeak-ng voice as the deployment decides.
   */
  bot: { look: string; voice: SpeechVoice };
}

export interface VoiceRenderSpec extends SpokenSpec {
  mode: 'voice';
}

export interface VideoRenderSpec extends SpokenSpec {
  mode: 'video';
  /** The video's shape as a picture size: the same clip in another shape is other pictures. */
  frame: FrameSize;
  position: BotPosition;
  botSize: BotSize;
  removeBotBackground: boolean;
  /** A video bot's recording played once from its start (ClipSpec.footage). Absent: its base loop. */
  footage?: 'as_recorded';
  /** Absolute http(s) URL of the background video (identified by its URL), or null for the default backdrop. */
  background: string | null;
  /** 0..1, gain of the background's own audio; 0 without a background. */
  backgroundVolume: number;
  transitions: { entry: (typeof ENTRY_TRANSITIONS)[number] | null; exit: (typeof EXIT_TRANSITIONS)[number] | null };
  /** Absent: not burned. */
  captions?: 'burn';
  logo?: Logo;
  /** Absent when there are none. */
  overlays?: Overlay[];
  /** Absent when no text is drawn in it, or when it draws as the default theme does. */
  theme?: Theme;
}

/** What the render job learns about a clip when it runs: the bot as pinned, the voice, the lexicon, the video. */
export interface RenderFacts {
  bot: Pick<Bot, 'look'>;
  voice: SpeechVoice;
  /** 'video' for a video's clip, 'voice' for a voice-only one (create_video: false). */
  mode: 'video' | 'voice';
  shape: Shape;
  /** The account's lexicon entries the clip's text uses. */
  pronunciations: readonly LexiconEntry[];
  /** The SHA-256 of the clip's recording, when it speaks one: another recording is another clip. */
  recordingSha256?: string;
}

/** The render spec of a stored clip. */
export function renderSpecOf(clip: ClipSpec, facts: RenderFacts): RenderSpec {
  const spoken: SpokenSpec & { mode: RenderSpec['mode'] } = {
    mode: facts.mode,
    text: clip.text,
    ...(facts.recordingSha256 && { recording: facts.recordingSha256 }),
    ...(facts.pronunciations.length && { pronunciations: facts.pronunciations.map((p): [string, string] => [p.word, p.say]) }),
    bot: { look: facts.bot.look, voice: facts.voice },
  };
  if (facts.mode === 'voice') return { ...spoken, mode: 'voice' };
  return {
    ...spoken,
    mode: 'video',
    frame: frameSizeOf(facts.shape),
    position: clip.position,
    // A clip stored before sizes existed is medium.
    botSize: clip.botSize ?? 'medium',
    removeBotBackground: clip.removeBotBackground,
    ...(clip.footage && { footage: clip.footage }),
    background: clip.background ?? null,
    backgroundVolume: clip.background ? clip.backgroundVolume : 0,
    transitions: { entry: clip.transitions.entry ?? null, exit: clip.transitions.exit ?? null },
    ...(clip.captions && { captions: clip.captions }),
    ...(clip.logo && { logo: { url: clip.logo.url, position: clip.logo.position, size: clip.logo.size, opacity: clip.logo.opacity } }),
    ...(clip.overlays?.length && { overlays: withSortedKeys(clip.overlays) }),
    ...(clip.theme && drawsTheme(clip) && { theme: withSortedKeys(clip.theme) }),
  };
}

/** A render spec's transitions as the clip states them (absent rather than null). */
export const transitionsOf = ({ transitions: { entry, exit } }: VideoRenderSpec): Transitions => ({
  ...(entry && { entry }),
  ...(exit && { exit }),
});

/** Whether the clip's theme changes its pixels: only text is drawn in it, and the default theme draws as no theme does. */
const drawsTheme = (clip: ClipSpec): boolean =>
  !!clip.theme &&
  (clip.captions === 'burn' || !!clip.overlays?.some((o) => o.type === 'text')) &&
  (clip.theme.font !== DEFAULT_THEME.font ||
    clip.theme.primaryColor !== DEFAULT_THEME.primaryColor ||
    clip.theme.textColor !== DEFAULT_THEME.textColor);
