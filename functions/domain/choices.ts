/**
 * What a caller chooses among, as plain values with no validation library: the validators (zod), the OpenAPI
 * document, the message schemas and the console's bundle all read these, so a word added here is accepted,
 * documented and offered everywhere at once.
 */

/**
 * Where the bot stands in the frame (of any shape): the four corners (the interface's "two words joined by a
 * hyphen"), the four edge centres and the centre. Underscore spellings and any letter case are accepted
 * and normalised to these.
 */
export const BOT_POSITIONS = [
  'top-left',
  'top-center',
  'top-right',
  'center-left',
  'center',
  'center-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
] as const;
export type BotPosition = (typeof BOT_POSITIONS)[number];

/**
 * How big the bot is drawn: `medium` is the standard presenter, `small` and `large` are smaller and bigger, and
 * `full` makes the presenter the subject (head and shoulders filling most of the frame's height, standing on its
 * bottom edge; only the horizontal word of the position counts). Any letter case is accepted.
 */
export const BOT_SIZES = ['small', 'medium', 'large', 'full'] as const;
export type BotSize = (typeof BOT_SIZES)[number];

/** Entry transitions play at the start of a clip, exit transitions at its end. */
export const ENTRY_TRANSITIONS = ['fade_in', 'slide_in_left', 'slide_in_right', 'slide_in_up', 'wipe_in', 'zoom_in'] as const;
export const EXIT_TRANSITIONS = ['fade_out', 'slide_out_left', 'slide_out_right', 'slide_out_down', 'wipe_out', 'zoom_out'] as const;

/** Defaults of the optional clip fields (also written in the docs and the OpenAPI document); bot_size: presenterLayoutOf. */
export const CLIP_DEFAULTS = {
  remove_bot_background: false,
  background_volume: 0.2,
  transitions: '',
  reusable_clip: false,
} as const;

/**
 * Where a clip's presenter stands and how big it is when the caller leaves that out. Over nothing of the caller's
 * (no background, no size, no position) the presenter is the subject: `full` and centred, its card carried to the
 * frame's edges. Over a caller's background, or at a position the caller chose, it keeps its corner: `medium`, at
 * the bot's default position. A video bot keeps its corner too: its recording's frame is not carried to the frame's
 * edges, so at `full` a landscape recording would be a strip across a vertical frame.
 */
export function presenterLayoutOf(
  clip: { bot_position?: BotPosition; bot_size?: BotSize; background?: string },
  botDefaultPosition: BotPosition,
  videoBot = false,
): { position: BotPosition; botSize: BotSize } {
  if (!videoBot && !clip.bot_position && !clip.bot_size && !clip.background) return { position: 'bottom-center', botSize: 'full' };
  return { position: clip.bot_position ?? botDefaultPosition, botSize: clip.bot_size ?? 'medium' };
}

/** What the docs and the OpenAPI document say of bot_size's default (presenterLayoutOf). */
export const BOT_SIZE_DEFAULT_DOC = 'full when the clip gives no background, bot_size or bot_position and its bot is not a video bot; else medium';

/** An image overlay's width (a share of the frame's width) when it gives none. */
export const OVERLAY_IMAGE_DEFAULT_SIZE = 0.15;

/** Defaults of the video's `logo` (its `url` has none): a small mark in the top-right corner, fully opaque. */
export const LOGO_DEFAULTS = { position: 'top-right', size: 0.12, opacity: 1 } as const satisfies {
  position: BotPosition;
  size: number;
  opacity: number;
};

/** `captions`: the caption files come with every video; 'burn' also draws them into the picture. */
export const CAPTION_MODES = ['none', 'burn'] as const;
export type CaptionMode = (typeof CAPTION_MODES)[number];

/** A bot of an account's uid (PUT /v1/bot/{uid}): 3 to 64 of a-z, 0-9, "_" and "-". */
export const BOT_UID_PATTERN = /^[a-z0-9_-]{3,64}$/;
export const BOT_UID_RULE = 'must be 3-64 characters of a-z, 0-9, _ and -';

/**
 * Text overlays (a clip's `overlays` of type "text"): a large centred title, a name/role bar at the lower left,
 * a box of text. Each has a natural place (OVERLAY_DEFAULT_POSITIONS); its `position` is one of BOT_POSITIONS.
 */
export const OVERLAY_STYLES = ['title', 'lower_third', 'caption_box'] as const;
export type OverlayStyle = (typeof OVERLAY_STYLES)[number];
export const OVERLAY_DEFAULT_POSITIONS: Record<OverlayStyle | 'image', BotPosition> = {
  title: 'center',
  lower_third: 'bottom-left',
  caption_box: 'bottom-center',
  // Not the logo's corner (top-right by default): an image left in its place is not under the logo.
  image: 'top-left',
};

/**
 * A video's `theme` fonts: bundled OFL families (npm @expo-google-fonts, SemiBold TTF). Arabic and CJK text,
 * which none of them draws, is drawn with Noto Sans Arabic and Noto Sans SC in any theme.
 */
export const THEME_FONTS = ['inter', 'montserrat', 'merriweather'] as const;
export type ThemeFont = (typeof THEME_FONTS)[number];
/** The theme of a video that gives none (and of each field left out): the burned captions' look. */
export const THEME_DEFAULTS = { font: 'inter', primary_color: '#2B59C3', text_color: '#FFFFFF' } as const;

/**
 * `music.preset`: the beds the service makes itself (functions/media/music-presets.ts synthesises them; nothing is
 * downloaded). calm: soft pad chords; upbeat: a brighter pad with a gentle arpeggio; ambient: slow drifting fifths.
 */
export const MUSIC_PRESETS = ['calm', 'upbeat', 'ambient'] as const;
export type MusicPreset = (typeof MUSIC_PRESETS)[number];
/** `music.volume` when it is left out: a bed well under the voice. */
export const MUSIC_DEFAULT_VOLUME = 0.25;
