import { kindOfSource, pinOf, type ResolvedBot } from './account-bot.ts';
import { resolveBot } from './account-bots.ts';
import { newId } from './api-keys.ts';
import { asRecordedProblem, backgroundRemovalProblem } from './as-recorded.ts';
import { newBatchId, rowVideoId } from './batch-ids.ts';
import { uploadFileKey } from './bucket-layout.ts';
import { type CaptionMode, presenterLayoutOf } from './choices.ts';
import type { ClipInput, ClipReference, ClipSpec, Logo, Recording } from './clip.ts';
import type { CreateVideoCommand } from './create-request.ts';
import { ConflictError, type FieldProblem, InvalidRequestError } from './errors.ts';
import { ensureRoomForAnotherVideo } from './fair-use.ts';
import { limits } from './limits.ts';
import type { RenderClipMessage } from './messages.ts';
import type { Theme } from './overlays.ts';
import type {
  AccountBotStore,
  AccountStore,
  BotCatalog,
  ClipLibrary,
  KeptClip,
  MessageQueue,
  ObjectStore,
  UploadStore,
  VideoRepository,
} from './ports.ts';
import { claimRecordings, releaseRecordings, TRANSCRIPT_LANGUAGE_NAMES, transcriptAlignmentOf, transcriptScriptProblem } from './recordings.ts';
import { describeShape, type Shape, sameShape } from './shape.ts';
import { isTestAccount, refuseTestVideoKnownTooLong, testShape, withWatermark } from './test-mode.ts';
import type { VideoRecord } from './video.ts';
import { refuseVideoKnownTooLong } from './video-length.ts';
import { findVoice, type VoiceOptions, voiceToSpeak } from './voices.ts';

export interface CreateVideoDeps {
  bots: BotCatalog;
  /** The account's own bots (PUT /v1/bot/{uid}); another account's are never found. */
  accountBots: Pick<AccountBotStore, 'get'>;
  /** Each account's limit of videos in progress. */
  accounts: Pick<AccountStore, 'get'>;
  videos: VideoRepository;
  clips: ClipLibrary;
  renderQueue: MessageQueue<RenderClipMessage>;
  now: () => Date;
  newVideoId: () => string;
  /** Which voices the deployment speaks: a clip's `voice` must be one of them. */
  voices: VoiceOptions;
  /**
   * The account's uploads and their files: a clip's audio_upload is claimed for the video. A batch's row needs
   * none (its batch claimed its rows' uploads when it started: recordings.ts claimRowRecordings); elsewhere without
   * them an audio_upload is refused.
   */
  recordings?: { uploads: UploadStore; objects: Pick<ObjectStore, 'head'> };
}

/** A bot of the account is pinned on its clip: its look and voice as they are now (see ClipSpec.pinnedBot). */
function pinned(resolved: ResolvedBot): Pick<ClipSpec, 'pinnedBot'> {
  const pin = resolved.own && pinOf(resolved.own);
  return pin ? { pinnedBot: pin } : {};
}

/**
 * Turns validated clips into stored specs: checks every bot exists (built in, or the caller's own) and is ready,
 * a kept clip's bot included, and every voice exists, applies defaults, resolves clip_uid references. An unknown bot or voice is a 400 with the
 * other problems; when the only trouble is a bot of the account still preparing (or failed), a 409 `bot_not_ready`
 * names it.
 */
async function resolveClips(inputs: (ClipInput | ClipReference)[], tenantId: string, video: VideoOfClips, deps: ClipLookups): Promise<ClipSpec[]> {
  const trouble: ClipTrouble = { problems: [], notReady: [] };
  const specs: ClipSpec[] = [];
  // The video's captions choice, logo and theme belong to each clip's render (and its cache key), a kept one included.
  const fromVideo: FromVideo = {
    ...(video.captions === 'burn' && { captions: 'burn' as const }),
    ...(video.logo && { logo: video.logo }),
    ...(video.theme && { theme: video.theme }),
  };
  for (const [index, input] of inputs.entries()) {
    const spec =
      'clip_uid' in input
        ? await keptClipSpec(input, index, tenantId, video, fromVideo, deps, trouble)
        : await describedClipSpec(input, index, tenantId, fromVideo, deps, trouble);
    if (spec) specs.push(spec);
  }
  const { problems, notReady } = trouble;
  if (problems.length) throw new InvalidRequestError(problems);
  if (notReady.length)
    throw new ConflictError(
      `A bot of this video is not ready (${notReady.join('; ')}); wait for its bot.ready event or GET /v1/bot/{uid} until its status is ready.`,
      'bot_not_ready',
    );
  return specs;
}

type ClipLookups = Pick<CreateVideoDeps, 'bots' | 'accountBots' | 'clips' | 'voices'>;
type VideoOfClips = { createVideo: boolean; shape: Shape; captions: CaptionMode; logo?: Logo; theme?: Theme };
/** What every clip of a video takes from the video for its picture: its captions choice, its logo and its theme. */
type FromVideo = Pick<ClipSpec, 'captions' | 'logo' | 'theme'>;
/** What resolving a video's clips found wrong: problems (a 400), and bots of the account not ready (a 409). */
interface ClipTrouble {
  problems: FieldProblem[];
  notReady: string[];
}

/** A clip naming a kept clip (clip_uid): the kept spec, if it joins this video and its bot is still there. */
async function keptClipSpec(
  input: ClipReference,
  index: number,
  tenantId: string,
  video: VideoOfClips,
  fromVideo: FromVideo,
  deps: ClipLookups,
  trouble: ClipTrouble,
): Promise<ClipSpec | undefined> {
  const kept: KeptClip | undefined = await deps.clips.get(tenantId, input.clip_uid);
  if (!kept) {
    trouble.problems.push({ path: `clips[${index}].clip_uid`, message: `no kept clip "${input.clip_uid}"; list yours with GET /v1/clips` });
    return undefined;
  }
  // A kept video clip is its pictures: it joins only a video of its own frame size (a voice has no frame).
  const keptShape = kept.shape;
  if (video.createVideo && kept.createVideo && !sameShape(keptShape, video.shape)) {
    trouble.problems.push({
      path: `clips[${index}].clip_uid`,
      message:
        `kept clip "${kept.clipUid}" is ${describeShape(keptShape)} and this video is ${describeShape(video.shape)}: a kept clip joins only videos of its own shape; ` +
        `send aspect_ratio=${keptShape.aspectRatio} and resolution=${keptShape.resolution}, or describe the clip in full`,
    });
    return undefined;
  }
  // Its bot must still be there and ready, as for a clip described in full: a deleted or failed bot of the
  // account would otherwise be accepted here and fail only at render.
  const keptBot = await resolveBot(tenantId, kept.spec.botUid, deps);
  if (!keptBot) {
    trouble.problems.push({
      path: `clips[${index}].clip_uid`,
      message: `kept clip "${kept.clipUid}" is spoken by bot "${kept.spec.botUid}", which no longer exists; describe the clip in full with another bot (GET /v1/bot)`,
    });
    return undefined;
  }
  if (keptBot.own && keptBot.own.status !== 'ready')
    trouble.notReady.push(`clips[${index}].clip_uid: bot "${keptBot.own.uid}" is ${keptBot.own.status}`);
  // Pinned anew: the bot as it is now, like a clip described in full (the kept clip is found again if unchanged).
  // The kept clip's captions choice, logo and theme were its first video's: this video's replace them.
  const { captions: _captions, logo: _logo, theme: _theme, pinnedBot: _pinned, ...spec } = kept.spec;
  return {
    ...spec,
    ...fromVideo,
    ...pinned(keptBot),
    index,
    clipName: input.clip_name ?? kept.clipName,
    reusedClipUid: kept.clipUid,
    reusable: true,
  };
}

/** A clip described in full: its bot and voice exist, and the defaults are applied. */
async function describedClipSpec(
  input: ClipInput,
  index: number,
  tenantId: string,
  fromVideo: FromVideo,
  deps: ClipLookups,
  trouble: ClipTrouble,
): Promise<ClipSpec | undefined> {
  const found = await resolveBot(tenantId, input.bot_uid, deps);
  if (!found) {
    trouble.problems.push({
      path: `clips[${index}].bot_uid`,
      message: `unknown bot "${input.bot_uid}"; list the bots with POST /v1/bot/ or GET /v1/bot`,
    });
    return undefined;
  }
  if (input.voice !== undefined && !findVoice(input.voice, deps.voices)) {
    trouble.problems.push({ path: `clips[${index}].voice`, message: `unknown voice "${input.voice}"; list the voices with GET /v1/voices` });
    return undefined;
  }
  if (found.own && found.own.status !== 'ready') trouble.notReady.push(`clips[${index}].bot_uid: bot "${found.own.uid}" is ${found.own.status}`);
  const footageProblem = asRecordedProblem(input, index, found) ?? backgroundRemovalProblem(input, index, found);
  if (footageProblem) {
    trouble.problems.push(footageProblem);
    return undefined;
  }
  const { bot } = found;
  const recording = recordingOf(input, tenantId);
  if (recording && input.text !== undefined) {
    const voice = findVoice(voiceToSpeak(bot.voice, input.voice, deps.voices).id, deps.voices);
    if (!transcriptAlignmentOf(voice)) {
      trouble.problems.push({
        path: `clips[${index}].text`,
        message: `a recording's transcript is aligned in ${TRANSCRIPT_LANGUAGE_NAMES}, and this clip's voice is ${voice?.language || 'another language'}: leave text out (the mouth follows the sound), or name a voice of the recording's language`,
      });
      return undefined;
    }
    const wrongScript = transcriptScriptProblem(input.text, voice!.languageName);
    if (wrongScript) {
      trouble.problems.push({ path: `clips[${index}].text`, message: wrongScript });
      return undefined;
    }
  }
  return {
    index,
    clipName: input.clip_name || `Clip ${index + 1}`,
    botUid: bot.uid,
    text: input.text?.trim() ?? '',
    ...(recording && { recording }),
    ...(input.voice !== undefined && { voice: input.voice }),
    ...presenterLayoutOf(input, bot.defaultPosition, found.own !== undefined && kindOfSource(found.own.source) === 'video'),
    removeBotBackground: input.remove_bot_background,
    ...(input.footage === 'as_recorded' && { footage: 'as_recorded' as const }),
    background: input.background,
    backgroundVolume: input.background ? input.background_volume : 0,
    transitions: input.transitions,
    reusable: input.reusable_clip,
    ...(input.overlays?.length && { overlays: input.overlays }),
    ...fromVideo,
    ...pinned(found),
  };
}

/** The recording a clip speaks, if any: its URL, or the key of the caller's upload (claimed by createVideo). */
function recordingOf(input: ClipInput, tenantId: string): Recording | undefined {
  if (input.audio_url !== undefined) return { url: input.audio_url };
  if (input.audio_upload !== undefined) return { uploadKey: uploadFileKey(tenantId, input.audio_upload) };
  return undefined;
}

/** The deps that find what a request's clips name, and the account they are made for. */
type MadeDeps = Pick<CreateVideoDeps, 'bots' | 'accountBots' | 'clips' | 'voices' | 'accounts'>;

/**
 * The request's clips as the account makes them, and their shape: a test account's at the test resolution (its kept
 * clips are) with the watermark on every clip; a video known now to be too long (the test's 60 s too) is refused.
 */
async function madeForAccount(command: CreateVideoCommand, tenantId: string, deps: MadeDeps) {
  const account = await deps.accounts.get(tenantId);
  const test = isTestAccount(account);
  const shape = test ? testShape(command.shape) : command.shape;
  const resolved = await resolveClips(command.clips, tenantId, { ...command, shape }, deps);
  const clips = test ? resolved.map(withWatermark) : resolved;
  await ensureVideoMayFit(clips, tenantId, test, deps);
  return { account, made: { clips, shape, test } };
}

/**
 * The bots, voices and kept clips a request names exist for the account, and its record fits, without creating
 * anything, as createVideo would make it (madeForAccount): how a template is checked when it is saved (a bot still
 * preparing is fine there; it must be ready when videos are made), and a batch's rows when it is sent.
 */
export async function checkClips(
  command: CreateVideoCommand,
  tenantId: string,
  deps: MadeDeps,
  /** 'ready': an account's bot still preparing (or failed) is a 409 `bot_not_ready`, as at create. */
  bots: 'exist' | 'ready' = 'exist',
): Promise<void> {
  try {
    const { made } = await madeForAccount(command, tenantId, deps);
    // The largest record the create or a batch's row could store: a row's ids, longer than a create's.
    const batchId = newBatchId();
    const ids = { videoId: rowVideoId(batchId, limits.maxBatchRows), tenantId, keyId: newId('key') };
    const row = { batch: { batchId, row: limits.maxBatchRows }, roomChecked: true as const, sendsEvent: true };
    refuseOversizedRecord(queuedVideoRecord(command, made, ids, new Date(), row));
  } catch (error) {
    if (!(error instanceof ConflictError) || bots === 'ready') throw error;
  }
}

export interface CreatedVideo {
  videoId: string;
  status: 'queued';
  createVideo: boolean;
  clipCount: number;
  createdAt: string;
  /** Made with a test key. */
  test: boolean;
}

/** How a batch's worker makes a row's video (an ordinary create leaves these out). */
export interface BatchVideoOptions {
  /** The row the video is made for. */
  batch: { batchId: string; row: number };
  /** The worker releases rows only as the account has room (domain/batches.ts): no second check. */
  roomChecked: true;
  /** Whether the video sends its own event to the webhook (the batch's `notify_each`). */
  sendsEvent: boolean;
}

/** The record a created video is stored as: queued, nothing rendered yet. */
function queuedVideoRecord(
  command: CreateVideoCommand,
  made: { clips: ClipSpec[]; shape: Shape; test: boolean },
  ids: { videoId: string; tenantId: string; keyId: string },
  now: Date,
  options?: BatchVideoOptions,
): VideoRecord {
  const { clips, shape, test } = made;
  return {
    ...ids,
    status: 'queued',
    createVideo: command.createVideo,
    shape,
    webhookUrl: command.webhookUrl,
    ...(test && { test: true as const }),
    ...(options && { batch: options.batch }),
    clips,
    ...(command.music && { music: command.music }),
    clipResults: Object.fromEntries(clips.map((c) => [String(c.index), { status: 'queued' as const }])),
    clipCount: clips.length,
    renderedCount: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    deadlineAt: Math.floor(now.getTime() / 1000) + limits.videoDeadlineSeconds,
    delivery: { state: options?.sendsEvent === false ? 'none' : 'pending', attempts: [] },
  };
}

/** A record too large to store (limits.maxVideoRecordBytes) is the caller's 400 at `clips`, before anything is taken. */
function refuseOversizedRecord(video: VideoRecord): void {
  const bytes = new TextEncoder().encode(JSON.stringify(video)).length;
  if (bytes > limits.maxVideoRecordBytes)
    throw new InvalidRequestError([
      {
        path: 'clips',
        message: `the video's clips, overlays, URLs and texts take ${Math.ceil(bytes / 1024)} KiB together; at most ${limits.maxVideoRecordBytes / 1024} KiB fit one video: use shorter URLs or texts, or split it into two videos`,
      },
    ]);
}

/**
 * A video known at create to run past its length (limits.maxVideoSeconds, a test key's 60 s) is refused now (400),
 * not after its renders: its kept clips' stored lengths, breaks and transitions (domain/video-length.ts).
 */
async function ensureVideoMayFit(clips: ClipSpec[], tenantId: string, test: boolean, deps: Pick<CreateVideoDeps, 'clips'>): Promise<void> {
  const keptSeconds = new Map<string, number>();
  for (const uid of new Set(clips.flatMap((clip) => (clip.reusedClipUid ? [clip.reusedClipUid] : [])))) {
    const kept = await deps.clips.get(tenantId, uid);
    if (kept) keptSeconds.set(uid, kept.durationSeconds);
  }
  const seconds = (clip: ClipSpec) => (clip.reusedClipUid ? keptSeconds.get(clip.reusedClipUid) : undefined);
  if (test) refuseTestVideoKnownTooLong(clips, seconds);
  refuseVideoKnownTooLong(clips, seconds);
}

/**
 * Stores the video as queued and enqueues one render message per clip, so the clips render in parallel.
 * An invalid request is refused (InvalidRequestError) before the account's room is checked (TooManyVideosInProgressError).
 */
export async function createVideo(
  command: CreateVideoCommand,
  caller: { tenantId: string; keyId: string },
  deps: CreateVideoDeps,
  options?: BatchVideoOptions,
): Promise<CreatedVideo> {
  const { account, made } = await madeForAccount(command, caller.tenantId, deps);
  const { clips, test } = made;
  if (!options?.roomChecked) await ensureRoomForAnotherVideo(caller.tenantId, deps, account);
  const now = deps.now();
  const videoId = deps.newVideoId();
  const claimDeps = deps.recordings && { ...deps.recordings, now: deps.now };
  const video = queuedVideoRecord(command, made, { videoId, tenantId: caller.tenantId, keyId: caller.keyId }, now, options);
  refuseOversizedRecord(video);
  // A batch's row speaks the uploads its batch claimed for it when the batch started.
  const uploadsTaken = options?.batch ? [] : await claimRecordings(command.clips, caller.tenantId, videoId, claimDeps);
  try {
    await deps.videos.create(video);
  } catch (error) {
    // No video: the uploads it took go back to the caller, so a retry (same Idempotency-Key or not) can name them.
    await releaseRecordings(uploadsTaken, caller.tenantId, videoId, claimDeps);
    throw error;
  }
  try {
    await deps.renderQueue.sendBatch(
      clips.map((c) => ({ kind: 'render-clip', tenantId: video.tenantId, videoId: video.videoId, clipIndex: c.index })),
    );
  } catch (error) {
    // The caller gets an error and no id: leave no video behind that would later fail and call its webhook,
    // and give back its uploads. (Render messages already sent find no video and are dropped.)
    await deps.videos.delete(video.videoId);
    await releaseRecordings(uploadsTaken, caller.tenantId, videoId, claimDeps);
    throw error;
  }
  return { videoId: video.videoId, status: 'queued', createVideo: video.createVideo, clipCount: clips.length, createdAt: video.createdAt, test };
}

/** A kept clip's uid is derived from its content address: the same clip kept twice is one clip. */
export const keptClipUid = (contentHash: string) => `clip_${contentHash.slice(0, 24)}`;
