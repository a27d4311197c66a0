/**
 * The console's state, in one place: signals that components read and the actions that change them. Everything
 * here comes from the public API; the key lives in sessionStorage only (gone when the tab closes).
 */
import { computed, effect, signal } from '@preact/signals';
import { type Account, ApiRequestError, api, type Bot, type InboxEvent, isFinished, type KeptClip, type Problem, type Video } from './api.ts';
import { DEFAULT_BACKGROUND_VOLUME, DEFAULT_BOT_SIZE, SCENE_DEFAULTS, VIDEO_DEFAULTS } from './options.ts';
import { type ClipDraft, type ComposerDraft, recordingProblems, requestBody } from './request.ts';
import { uploadOnce, uploadUsed } from './uploads.ts';
import type { Voice } from './voices.ts';

const KEY_STORAGE = 'vidbot.apiKey';

export type Tab = 'create' | 'videos' | 'templates' | 'inbox' | 'bots' | 'account';

export const apiKey = signal(sessionStorage.getItem(KEY_STORAGE) ?? '');
effect(() => {
  if (apiKey.value) sessionStorage.setItem(KEY_STORAGE, apiKey.value);
  else sessionStorage.removeItem(KEY_STORAGE);
});

export const tab = signal<Tab>('create');
export const bots = signal<Bot[]>([]);
/** Bots a clip can use now (a bot being prepared, or that failed, cannot speak yet). */
const readyBots = computed(() => bots.value.filter((b) => b.status === 'ready'));
export const voices = signal<Voice[]>([]);
/** Why the voice catalog is missing, if it is: the pickers then offer the bot's voice only. */
export const voicesError = signal('');
export const videos = signal<Video[]>([]);
/** Whether the list has been read once since signing in: until then an empty list means "not yet known". */
export const videosLoaded = signal(false);
export const selectedVideoId = signal<string | null>(null);
export const selectedVideo = signal<Video | null>(null);
export const inboxUrl = signal('');
export const inboxEvents = signal<InboxEvent[]>([]);
export const keptClips = signal<KeptClip[]>([]);
export const account = signal<Account | null>(null);
/** A message for the whole page (a failed load, a finished action). */
export const notice = signal<{ kind: 'error' | 'info'; text: string } | null>(null);

/**
 * A finished video's links (file, poster, captions), fixed per video for the page's life: every read of a video
 * presigns fresh ones, and swapping the player's source or its captions track on each poll would restart them.
 */
export interface MediaLinks {
  file: string;
  poster: string | null;
  vtt: string | null;
  srt: string | null;
  /** Every spoken word with its times (JSON). */
  words: string | null;
}
const mediaLinks = new Map<string, MediaLinks>();
export const mediaLinksOf = (video: Video): MediaLinks | null => {
  const output = video.output;
  if (!output?.download_url) return mediaLinks.get(video.video_id) ?? null;
  // Each link is kept from the first answer that has it (a list item may carry fewer than the video's own read).
  const known = mediaLinks.get(video.video_id);
  const links: MediaLinks = {
    file: known?.file ?? output.download_url,
    poster: known?.poster ?? output.thumbnail_url ?? null,
    vtt: known?.vtt ?? output.captions?.vtt_url ?? null,
    srt: known?.srt ?? output.captions?.srt_url ?? null,
    words: known?.words ?? output.captions?.words_url ?? null,
  };
  if (!known || links.poster !== known.poster || links.vtt !== known.vtt || links.srt !== known.srt || links.words !== known.words)
    mediaLinks.set(video.video_id, links);
  return mediaLinks.get(video.video_id)!;
};

export const call = <T>(method: string, path: string, body?: unknown) => api<T>(apiKey.value, method, path, body);

export function report(error: unknown) {
  if (error instanceof ApiRequestError && error.status === 401) {
    signOut('That API key was not accepted. Enter it again.');
    return;
  }
  notice.value = { kind: 'error', text: error instanceof Error ? error.message : String(error) };
}

// --- Sign in ------------------------------------------------------------------------------------------------

export const signInError = signal('');

export async function signIn(key: string) {
  signInError.value = '';
  try {
    account.value = await api<Account>(key.trim(), 'GET', 'v1/account');
    apiKey.value = key.trim();
    await loadAll();
  } catch (error) {
    signInError.value =
      error instanceof ApiRequestError && (error.status === 401 || error.status === 403)
        ? 'That API key was not accepted.'
        : (error as Error).message;
  }
}

export function signOut(message = '') {
  apiKey.value = '';
  account.value = null;
  videos.value = [];
  videosLoaded.value = false;
  inboxEvents.value = [];
  selectedVideoId.value = null;
  selectedVideo.value = null;
  signInError.value = message;
}

// --- Loading ------------------------------------------------------------------------------------------------

export async function loadAll() {
  await Promise.all([loadBots(), loadVoices(), loadVideos(), loadInbox(), loadLibrary()]);
}

export async function loadBots() {
  try {
    bots.value = (await call<{ bots: Bot[] }>('GET', 'v1/bot')).bots;
    const first = readyBots.value[0];
    for (const clip of composer.value.clips) if (!clip.botUid && first) updateClip(clip.id, { botUid: first.uid });
  } catch (error) {
    report(error);
  }
}

/** The catalog does not change while the page is open: read once per sign-in. */
async function loadVoices() {
  try {
    voices.value = (await call<{ voices: Voice[] }>('GET', 'v1/voices')).voices;
    voicesError.value = '';
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) report(error);
    else voicesError.value = `The voice list could not be loaded (${error instanceof Error ? error.message : String(error)}).`;
  }
}

export async function loadVideos() {
  try {
    videos.value = (await call<{ videos: Video[] }>('GET', 'v1/video?limit=20')).videos;
    videosLoaded.value = true;
    const id = selectedVideoId.value;
    if (id) {
      const video = await call<Video>('GET', `v1/video/${encodeURIComponent(id)}`);
      if (selectedVideoId.value === id) selectedVideo.value = video; // not one closed (or deleted) meanwhile
    }
  } catch (error) {
    report(error);
  }
}

export async function loadInbox() {
  try {
    const inbox = await call<{ inbox_url: string; events: InboxEvent[] }>('GET', 'v1/inbox?limit=50');
    inboxUrl.value = inbox.inbox_url;
    inboxEvents.value = inbox.events;
    // The inbox is the default webhook until the person types another.
    if (!webhookEdited.value) composer.value = { ...composer.value, webhook: inbox.inbox_url };
  } catch (error) {
    report(error);
  }
}

export async function loadLibrary() {
  try {
    const [acct, clips] = await Promise.all([call<Account>('GET', 'v1/account'), call<{ clips: KeptClip[] }>('GET', 'v1/clips?limit=100')]);
    account.value = acct;
    keptClips.value = clips.clips;
  } catch (error) {
    report(error);
  }
}

/**
 * A bot being prepared, or one that settled within the last minute and whose event's first attempt is not recorded
 * yet: the bots list changes soon. (A delivery that keeps failing is retried for a day: not worth polling for.)
 */
export const anyBotPreparing = computed(() =>
  bots.value.some(
    (b) => b.status === 'preparing' || (b.webhook_delivery?.state === 'pending' && Date.now() - Date.parse(b.updated_at ?? '') < 60_000),
  ),
);

export const anyInProgress = computed(
  () => videos.value.some((v) => !isFinished(v)) || (selectedVideo.value !== null && !isFinished(selectedVideo.value)),
);

export function selectVideo(videoId: string | null) {
  selectedVideoId.value = videoId;
  selectedVideo.value = videos.value.find((v) => v.video_id === videoId) ?? null;
  if (videoId) void loadVideos();
}

// --- Video actions ------------------------------------------------------------------------------------------

export const pendingDelete = signal<string | null>(null);

export async function deleteVideo(videoId: string) {
  // Closed before it is deleted: the player and the 2 s poll stop asking for it, so neither meets a 404.
  const wasSelected = selectedVideoId.value === videoId;
  if (wasSelected) {
    selectedVideoId.value = null;
    selectedVideo.value = null;
  }
  try {
    await call('DELETE', `v1/video/${encodeURIComponent(videoId)}`);
    pendingDelete.value = null;
    notice.value = { kind: 'info', text: `Video ${videoId} deleted.` };
    await Promise.all([loadVideos(), loadLibrary()]);
  } catch (error) {
    if (wasSelected) selectVideo(videoId);
    report(error);
  }
}

export async function redeliver(videoId: string) {
  try {
    await call('POST', `v1/video/${encodeURIComponent(videoId)}/redeliver`);
    notice.value = { kind: 'info', text: `The webhook event of ${videoId} is being sent again.` };
    await loadVideos();
  } catch (error) {
    report(error);
  }
}

// --- The composer -------------------------------------------------------------------------------------------

let nextClipId = 1;
const newClip = (overrides: Partial<ClipDraft> = {}): ClipDraft => ({
  id: nextClipId++,
  kind: 'new',
  clipUid: '',
  botUid: readyBots.value[0]?.uid ?? '',
  speech: 'text',
  audio: null,
  voice: '',
  text: '',
  position: null,
  removeBackground: false,
  background: '',
  backgroundVolume: DEFAULT_BACKGROUND_VOLUME,
  entry: '',
  exit: '',
  keep: false,
  name: '',
  size: DEFAULT_BOT_SIZE,
  overlays: [],
  ...overrides,
});

export const composer = signal<ComposerDraft>({ webhook: '', voiceOnly: false, ...VIDEO_DEFAULTS, scene: { ...SCENE_DEFAULTS }, clips: [newClip()] });
export const webhookEdited = signal(false);
/** The API's answer to the last create: its problems, each shown by the field its path names. */
export const problems = signal<Problem[]>([]);
export const formError = signal('');
export const submitting = signal(false);

export const body = computed(() => requestBody(composer.value));

export function setDraft(change: Partial<ComposerDraft>) {
  composer.value = { ...composer.value, ...change };
}

export function updateClip(id: number, change: Partial<ClipDraft>) {
  setDraft({ clips: composer.value.clips.map((c) => (c.id === id ? { ...c, ...change } : c)) });
}

export function addClip(clip: ClipDraft = newClip()) {
  setDraft({ clips: [...composer.value.clips, clip] });
}

export function removeClip(id: number) {
  setDraft({ clips: composer.value.clips.filter((c) => c.id !== id) });
}

export function moveClip(id: number, by: -1 | 1) {
  const clips = [...composer.value.clips];
  const from = clips.findIndex((c) => c.id === id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= clips.length) return;
  [clips[from], clips[to]] = [clips[to]!, clips[from]!];
  setDraft({ clips });
}

export function reuseClip(clip: KeptClip) {
  addClip(newClip({ kind: 'kept', clipUid: clip.clip_uid, botUid: clip.bot_uid, name: clip.clip_name }));
  tab.value = 'create';
}

export async function submit() {
  // What is sent is the form as it is now: a clip added or changed while the recordings upload is not in it.
  const draft = composer.value;
  problems.value = recordingProblems(draft);
  formError.value = '';
  if (problems.value.length) {
    formError.value = 'The video cannot be sent yet.';
    return;
  }
  submitting.value = true;
  try {
    // Each recording goes to storage first; the create request names it by its upload id.
    const uploads = new Map<number, string>();
    const recordings: Blob[] = [];
    for (const [index, clip] of draft.clips.entries())
      if (clip.kind === 'new' && clip.speech === 'recording' && clip.audio) {
        uploads.set(clip.id, await uploadOnce(call, clip.audio, `clips[${index}].audio_upload`));
        recordings.push(clip.audio);
      }
    const created = await call<{ video_id: string }>('POST', 'v1/bot', requestBody(draft, uploads));
    for (const recording of recordings) uploadUsed(recording);
    notice.value = { kind: 'info', text: `Video ${created.video_id} accepted; it is rendering.` };
    tab.value = 'videos';
    await loadVideos();
    selectVideo(created.video_id);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status !== 401) {
      problems.value = error.details;
      formError.value = error.message;
    } else report(error);
  } finally {
    submitting.value = false;
  }
}

/** The problems the API reported for one field, by its request path, e.g. "clips[1].text". */
export const problemsAt = (path: string) => problems.value.filter((p) => p.path === path);
