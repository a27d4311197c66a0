/**
 * The composer's state as the API's create request, and the same request as a curl command. Only fields the API
 * accepts are sent, and only when they differ from its defaults, so the curl shown is the one a person would write.
 */
import { DEFAULT_BACKGROUND_VOLUME, DEFAULT_BOT_SIZE, VIDEO_DEFAULTS } from './options.ts';

/** One on-screen layer of a clip (`overlays[]`): a text or an image, shown from `start` to `end` seconds. */
export interface OverlayDraft {
  /** Local identity, not sent. */
  id: number;
  type: 'text' | 'image';
  text: string;
  style: string;
  url: string;
  /** Seconds from the clip's start, as typed ('' leaves the API's default: the clip's start, the clip's end). */
  start: string;
  end: string;
  /** '' leaves the style's own place. */
  position: string;
  /** An image's width as a share of the frame's width. */
  size: number;
}

/** The video's brand and sound: a logo on every frame, a theme for its text, a music bed under the voice. */
export interface SceneDraft {
  logoUrl: string;
  logoPosition: string;
  logoSize: number;
  logoOpacity: number;
  /** '' : the default font and colours. */
  font: string;
  primaryColor: string;
  textColor: string;
  music: 'none' | 'preset' | 'url';
  musicPreset: string;
  musicUrl: string;
  musicVolume: number;
}

export interface ClipDraft {
  /** Local identity (stable across reordering), not sent. */
  id: number;
  /** A new clip, or one kept earlier and reused by its clip_uid. */
  kind: 'new' | 'kept';
  clipUid: string;
  botUid: string;
  /** The bot speaks the text in a voice, or the person's own recording (the text is then its transcript). */
  speech: 'text' | 'recording';
  /** The recording, made on this page or chosen; sent as `audio_upload`. */
  audio: File | null;
  text: string;
  /** A voice id of GET /v1/voices; '' speaks with the bot's own voice. */
  voice: string;
  /** null: the bot's default position. */
  position: string | null;
  removeBackground: boolean;
  background: string;
  backgroundVolume: number;
  entry: string;
  exit: string;
  keep: boolean;
  name: string;
  /** `bot_size`: small, medium, large or full; '' leaves it to the API (full without a background or a position, else medium). */
  size: string;
  overlays: OverlayDraft[];
}

export interface ComposerDraft {
  webhook: string;
  voiceOnly: boolean;
  /** `aspect_ratio`, `resolution`, `captions`: the picture's options (not sent for voice only). */
  aspectRatio: string;
  resolution: string;
  captions: string;
  scene: SceneDraft;
  clips: ClipDraft[];
}

/** A time field as typed: a number when it is one, else the text as typed (the API names what is wrong with it). */
const seconds = (typed: string): number | string => (typed.trim() !== '' && Number.isFinite(Number(typed)) ? Number(typed) : typed.trim());

function overlayBody(overlay: OverlayDraft): Record<string, unknown> {
  const body: Record<string, unknown> =
    overlay.type === 'text'
      ? { type: 'text', text: overlay.text, style: overlay.style }
      : { type: 'image', url: overlay.url.trim(), size: overlay.size };
  if (overlay.start.trim()) body.start = seconds(overlay.start);
  if (overlay.end.trim()) body.end = seconds(overlay.end);
  if (overlay.position) body.position = overlay.position;
  return body;
}

/** The video-level scene fields (`logo`, `theme`, `music`), each only when chosen. */
function sceneBody(scene: SceneDraft, picture: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (picture && scene.logoUrl.trim())
    body.logo = { url: scene.logoUrl.trim(), position: scene.logoPosition, size: scene.logoSize, opacity: scene.logoOpacity };
  if (picture && (scene.font || scene.primaryColor || scene.textColor))
    body.theme = {
      ...(scene.font ? { font: scene.font } : {}),
      ...(scene.primaryColor ? { primary_color: scene.primaryColor } : {}),
      ...(scene.textColor ? { text_color: scene.textColor } : {}),
    };
  if (scene.music === 'preset') body.music = { preset: scene.musicPreset, volume: scene.musicVolume };
  if (scene.music === 'url') body.music = { url: scene.musicUrl.trim(), volume: scene.musicVolume };
  return body;
}

/** Stands for a recording's upload id until it is uploaded (in the curl shown, the id POST /v1/uploads answers). */
const UPLOAD_PLACEHOLDER = 'UPLOAD_ID_OF_THE_RECORDING';

/** A clip's words: the text a voice speaks, or the recording's upload and, when typed, its transcript. */
function speechBody(clip: ClipDraft, uploadId: string | undefined): Record<string, unknown> {
  const voice = clip.voice ? { voice: clip.voice } : {};
  if (clip.speech === 'text') return { text: clip.text, ...voice };
  // A recording's voice is its language, the one its transcript is aligned in.
  return { audio_upload: uploadId ?? UPLOAD_PLACEHOLDER, ...(clip.text.trim() ? { text: clip.text.trim() } : {}), ...voice };
}

function clipBody(clip: ClipDraft, uploadId: string | undefined): Record<string, unknown> {
  if (clip.kind === 'kept') return { clip_uid: clip.clipUid, ...(clip.name.trim() ? { clip_name: clip.name.trim() } : {}) };
  const body: Record<string, unknown> = { bot_uid: clip.botUid, ...speechBody(clip, uploadId) };
  if (clip.position) body.bot_position = clip.position;
  if (clip.size !== DEFAULT_BOT_SIZE) body.bot_size = clip.size;
  if (clip.removeBackground) body.remove_bot_background = true;
  if (clip.background.trim()) body.background = clip.background.trim();
  if (clip.backgroundVolume !== DEFAULT_BACKGROUND_VOLUME) body.background_volume = clip.backgroundVolume;
  const transitions = [clip.entry, clip.exit].filter(Boolean).join(' ');
  if (transitions) body.transitions = transitions;
  if (clip.keep) body.reusable_clip = true;
  if (clip.name.trim()) body.clip_name = clip.name.trim();
  if (clip.overlays.length) body.overlays = clip.overlays.map(overlayBody);
  return body;
}

/**
 * The create request. `uploads` maps a clip's local id to its recording's upload id, once uploaded; before that
 * (the curl shown) a placeholder stands for it.
 */
export function requestBody(draft: ComposerDraft, uploads: ReadonlyMap<number, string> = new Map()): Record<string, unknown> {
  const picture: Record<string, unknown> = {};
  if (!draft.voiceOnly) {
    if (draft.aspectRatio !== VIDEO_DEFAULTS.aspectRatio) picture.aspect_ratio = draft.aspectRatio;
    if (draft.resolution !== VIDEO_DEFAULTS.resolution) picture.resolution = draft.resolution;
    if (draft.captions !== VIDEO_DEFAULTS.captions) picture.captions = draft.captions;
  }
  return {
    webhook: draft.webhook.trim(),
    ...(draft.voiceOnly ? { create_video: false } : {}),
    ...picture,
    ...sceneBody(draft.scene, !draft.voiceOnly),
    clips: draft.clips.map((clip) => clipBody(clip, uploads.get(clip.id))),
  };
}

/** What the page can tell before sending: a clip set to speak a recording has one. */
export const recordingProblems = (draft: ComposerDraft): { path: string; message: string }[] =>
  draft.clips.flatMap((clip, index) =>
    clip.kind === 'new' && clip.speech === 'recording' && !clip.audio
      ? [{ path: `clips[${index}].audio_upload`, message: 'record your voice, or choose a recording' }]
      : [],
  );

/** POSIX shell single quotes: nothing inside is special except the quote itself. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as curl, with the key left as $KEY: the console never prints a key. */
export function curlCommand(apiUrl: string, body: Record<string, unknown>): string {
  const recorded = JSON.stringify(body).includes(UPLOAD_PLACEHOLDER);
  const first = recorded ? `# First upload each recording (see docs/uploads.md); its upload_id replaces ${UPLOAD_PLACEHOLDER}.\n` : '';
  return (
    first +
    [
      `curl -s -X POST ${shellQuote(`${apiUrl}/v1/bot`)}`,
      `  -H "Authorization: Bearer $KEY"`,
      `  -H 'Content-Type: application/json'`,
      `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
    ].join(' \\\n')
  );
}

/** Characters as the API counts them (UTF-16 units, like its validator). */
export const charCount = (text: string) => text.length;
