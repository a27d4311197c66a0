/**
 * The composer's state as the API's create request, and the same request as a curl command. Only fields the API
 * accepts are sent, and only when they differ from its defaults, so the curl shown is the one a person would write.
 */
import { DEFAULT_BACKGROUND_VOLUME, VIDEO_DEFAULTS } from './options.ts';

export interface ClipDraft {
  /** Local identity (stable across reordering), not sent. */
  id: number;
  /** A new clip, or one kept earlier and reused by its clip_uid. */
  kind: 'new' | 'kept';
  clipUid: string;
  botUid: string;
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
}

export interface ComposerDraft {
  webhook: string;
  voiceOnly: boolean;
  /** `aspect_ratio`, `resolution`, `captions`: the picture's options (not sent for voice only). */
  aspectRatio: string;
  resolution: string;
  captions: string;
  clips: ClipDraft[];
}

function clipBody(clip: ClipDraft): Record<string, unknown> {
  if (clip.kind === 'kept') return { clip_uid: clip.clipUid, ...(clip.name.trim() ? { clip_name: clip.name.trim() } : {}) };
  const body: Record<string, unknown> = { bot_uid: clip.botUid, text: clip.text };
  if (clip.voice) body.voice = clip.voice;
  if (clip.position) body.bot_position = clip.position;
  if (clip.removeBackground) body.remove_bot_background = true;
  if (clip.background.trim()) body.background = clip.background.trim();
  if (clip.backgroundVolume !== DEFAULT_BACKGROUND_VOLUME) body.background_volume = clip.backgroundVolume;
  const transitions = [clip.entry, clip.exit].filter(Boolean).join(' ');
  if (transitions) body.transitions = transitions;
  if (clip.keep) body.reusable_clip = true;
  if (clip.name.trim()) body.clip_name = clip.name.trim();
  return body;
}

export function requestBody(draft: ComposerDraft): Record<string, unknown> {
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
    clips: draft.clips.map(clipBody),
  };
}

/** POSIX shell single quotes: nothing inside is special except the quote itself. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as curl, with the key left as $KEY: the console never prints a key. */
export function curlCommand(apiUrl: string, body: Record<string, unknown>): string {
  return [
    `curl -s -X POST ${shellQuote(`${apiUrl}/v1/bot`)}`,
    `  -H "Authorization: Bearer $KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join(' \\\n');
}

/** Characters as the API counts them (UTF-16 units, like its validator). */
export const charCount = (text: string) => text.length;
