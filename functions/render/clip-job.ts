import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { videoJob } from '#commons/jobs';
import { logger } from '#commons/logger';
import { recordClipRendered } from '#commons/metrics';
import { makeWorkDir } from '#commons/workdirs';
import { type AccountBot, ownsLook, type PinnedBot, pinOf, type StoredLook, toBot } from '#domain/account-bot';
import { resolveBot } from '#domain/account-bots';
import type { Bot } from '#domain/bot';
import { cuesObjectKey, KEPT, keptObjectKey, posterObjectKey, renderObjectKey, TEMPORARY } from '#domain/bucket-layout';
import { CUES_CONTENT_TYPE, serialiseClipCues } from '#domain/captions';
import type { ClipSpec, Recording } from '#domain/clip';
import { JobFailedError } from '#domain/errors';
import { fetchedMediaKey } from '#domain/fetched-media';
import { pronunciationsFor } from '#domain/lexicon';
import { limits } from '#domain/limits';
import type { AssembleMessage, DeliverMessage, FetchMediaMessage, RenderClipMessage } from '#domain/messages';
import { PictureBudget } from '#domain/picture-budget';
import type { AccountBotStore, BotCatalog, ClipLibrary, LexiconStore, MessageQueue, ObjectHead, ObjectStore, VideoRepository } from '#domain/ports';
import { transcriptAlignmentOf } from '#domain/recordings';
import { isReusableRender, renderCacheKey } from '#domain/render-cache';
import { type RenderSpec, renderSpecOf } from '#domain/render-spec';
import { recordingSecondsFor } from '#domain/test-mode';
import type { ClipResult, VideoRecord } from '#domain/video';
import { isTerminal } from '#domain/video';
import { keptClipUid } from '#domain/videos';
import { findVoice, type SpeechVoice, type VoiceOptions, voiceToSpeak } from '#domain/voices';
import type { BackgroundMedia } from '#media/background-media';
import { POSTER_CONTENT_TYPE } from '#media/formats';
import type { ImageMedia, PictureFit } from '#media/image-media';
import { mediaRunsStarted } from '#media/media';
import { backgroundRules, clipRemoteMedia, type ImageSubject, imageRules, recordingRules } from '#media/remote-media';
import { type ImageLayer, imageFitOf } from './engine/image-layers.ts';
import type { RenderClipInput, RenderClipOutput, SpeechEngine } from './engine/types.ts';
import { RENDERER_VERSION } from './engine/types.ts';
import { type RecordingObject, recordingCheckpoints } from './recording.ts';
import { renderFailure } from './render-failure.ts';
import { engineInputOf, imageLayersOf } from './render-input.ts';
import { RecordedSpeech } from './speech/recorded.ts';

/** S3 user metadata holding a rendered clip's duration in seconds. */
const DURATION_METADATA = 'duration-seconds';

export interface ClipJobDeps {
  videos: VideoRepository;
  bots: BotCatalog;
  /** The video's account's own bots: a clip may name one (another account's is never found). */
  accountBots: Pick<AccountBotStore, 'get'>;
  /** An account bot's look in a local directory (downloaded from the bucket, cached per version). */
  lookDirectory: (own: Pick<AccountBot, 'tenantId' | 'uid'>, look: StoredLook) => Promise<string>;
  clips: ClipLibrary;
  /** The video's account's pronunciation lexicon, read when its clip renders. */
  lexicons: Pick<LexiconStore, 'get'>;
  objects: ObjectStore;
  assembleQueue: MessageQueue<AssembleMessage>;
  /** The fetch stage: a clip whose media from URLs is not in the bucket yet goes there first (messages.ts). */
  fetchQueue: MessageQueue<FetchMediaMessage>;
  notifyQueue: MessageQueue<DeliverMessage>;
  renderClip: (input: RenderClipInput) => Promise<RenderClipOutput>;
  speechFor: (voice: SpeechVoice) => SpeechEngine;
  /** Which voices the deployment speaks (config SPEECH_ENGINE): the bot's Polly voice or its espeak-ng one. */
  voices: VoiceOptions;
  /** Reads the background stored under `key` into `path` and inspects it (once per account's bytes), or throws JobFailedError. */
  fetchBackground: (key: string, path: string, workDir: string, budget: PictureBudget, account: string) => Promise<BackgroundMedia>;
  /** Reads a clip's recording (its upload, or what the fetch stage brought from its URL) into `path`, or throws JobFailedError. */
  fetchRecording: (recording: RecordingObject, path: string) => Promise<{ sha256: string }>;
  /**
   * Reads an image drawn over the clip (the logo, an overlay's) that the fetch stage stored under `key` into
   * `path`, inspects it and scales it down to `fit`, within the clip's picture `budget`, or throws JobFailedError.
   */
  fetchImage: (key: string, path: string, subject: ImageSubject, fit: PictureFit, budget: PictureBudget) => Promise<ImageMedia>;
  /** Multiplies every media run's time budget (config RENDER_BUDGET_SCALE). @default 1 */
  renderBudgetScale?: number;
  /** Epoch ms by which a render's encode must be over (the invocation's time left, less the upload's share). */
  renderDeadline?: () => number | undefined;
  now: () => Date;
}

/** One clip's render, as its steps share it: the bot it draws, its render spec and the content address it is cached under. */
interface ClipRender {
  videoId: string;
  video: VideoRecord;
  clip: ClipSpec;
  clipIndex: number;
  bot: Bot;
  /** Set for a bot of the account, with the look and voice it renders with. */
  own?: AccountBot;
  pin?: PinnedBot;
  spec: RenderSpec;
  hash: string;
  keptKey: string;
  renderKey: string;
  /** The clip's own recording, when it speaks one (audio_url, audio_upload). */
  recording?: ClipRecording;
}

/** A clip's recording, fetched into its own work dir, and the SHA-256 of its bytes. */
interface ClipRecording {
  workDir: string;
  path: string;
  sha256: string;
}

/**
 * Renders one clip of a video: finds it in the render cache or renders it, stores it, records it, and
 * queues the assembly when it was the last clip. Safe to run again for the same message.
 *
 * The cache, per tenant (the content hash includes it): a kept clip under kept/ (never expires), else a
 * temporary render under renders/ young enough not to expire before the video is assembled. A reusable clip
 * always ends under kept/ (rendered there, or copied there from renders/); renders/ only ever holds
 * temporary objects, so no write can turn a kept clip temporary.
 */
async function runClipJob(message: RenderClipMessage, deps: ClipJobDeps): Promise<void> {
  const { videoId, clipIndex } = message;
  const video = await deps.videos.markClipRendering(videoId, clipIndex);
  if (!video) return logger.warn('render for a video that no longer exists', { video_id: videoId });
  if (isTerminal(video.status)) return logger.info('video already ended; nothing to render', { video_id: videoId, status: video.status });
  const clip = video.clips[clipIndex];
  if (!clip) throw new JobFailedError('invalid_clip', 'it does not exist');

  if (video.clipResults[String(clipIndex)]?.status !== 'rendered') {
    // Media from URLs is waited for by the fetch stage, never here: a recording at once (the cache key hashes it),
    // the pictures when the clip is not in the cache.
    const fetchFirst = !message.fetched && clipRemoteMedia(clip, video.createVideo).length > 0;
    if (fetchFirst && clip.recording && 'url' in clip.recording) return handToFetchStage(message, deps);
    const recording = clip.recording && (await recordingOf(message, clip.recording, deps));
    try {
      const job = await clipRenderOf(message, video, clip, deps, recording);
      const { allRendered } = await renderClipOnce(job, deps, fetchFirst ? message : undefined);
      if (!allRendered) return;
    } finally {
      if (recording) await rm(recording.workDir, { recursive: true, force: true });
    }
  } else {
    const current = await deps.videos.get(videoId);
    if (!current || current.renderedCount !== current.clipCount || isTerminal(current.status)) return;
  }
  // Every clip is rendered. This also runs again on a redelivered message, on purpose: if the first send was
  // lost, this one assembles. A duplicate is harmless: assembly is claimed with a lease, so a message that
  // finds it held stands down (see VideoRepository.claimAssembly).
  await deps.assembleQueue.send({ kind: 'assemble', tenantId: message.tenantId, videoId });
}

/** Queues the clip's fetch (functions/fetcher), which queues its render again once its media is in the bucket. */
async function handToFetchStage({ tenantId, videoId, clipIndex }: RenderClipMessage, deps: ClipJobDeps): Promise<void> {
  logger.info('clip media to fetch first', { video_id: videoId, clip_index: clipIndex });
  await deps.fetchQueue.send({ kind: 'fetch-media', tenantId, videoId, clipIndex });
}

/** The clip's recording in a work dir of its own, and its hash (render/recording.ts). */
async function recordingOf({ tenantId, videoId, clipIndex }: RenderClipMessage, recording: Recording, deps: ClipJobDeps): Promise<ClipRecording> {
  const workDir = await makeWorkDir('render', `${videoId}-${clipIndex}-recording`);
  const path = join(workDir, 'recording');
  const source =
    'uploadKey' in recording
      ? { objectKey: recording.uploadKey, upload: true }
      : { objectKey: fetchedMediaKey(tenantId, videoId, recordingRules.code, recording.url), upload: false };
  try {
    const { sha256 } = await deps.fetchRecording(source, path);
    return { workDir, path, sha256 };
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Finds the clip in the render cache or renders it, keeps it if asked, and records it on its video. Given `fetchFirst`,
 * a clip not in the cache goes to the fetch stage instead of rendering.
 */
async function renderClipOnce(job: ClipRender, deps: ClipJobDeps, fetchFirst?: RenderClipMessage): Promise<{ allRendered: boolean }> {
  const { videoId, clipIndex, clip, hash } = job;
  const result: ClipResult = { status: 'rendered', contentHash: hash };
  const { found, rendered } = await findInCache(job, deps);
  if (found) {
    // Rendered before (by this or another video of the tenant): its duration is stored with it.
    result.cached = true;
    result.objectKey = found.key;
    result.durationSeconds = Number(found.head.metadata[DURATION_METADATA] ?? 0);
    logger.info('clip found in render cache', { video_id: videoId, clip_index: clipIndex, content_hash: hash, object_key: found.key });
  } else if (fetchFirst) {
    await handToFetchStage(fetchFirst, deps);
    return { allRendered: false };
  } else {
    if (rendered) logger.info('cached render too close to expiry; rendering again', { video_id: videoId, clip_index: clipIndex, content_hash: hash });
    await renderAndStore(job, result, deps);
  }
  if (clip.reusable) await keepClip(job, result, deps);
  return deps.videos.recordClipRendered(videoId, clipIndex, result);
}

/** The bot the clip draws, the clip's render spec, and the content address of its render. */
async function clipRenderOf(
  message: RenderClipMessage,
  video: VideoRecord,
  clip: ClipSpec,
  deps: ClipJobDeps,
  recording?: ClipRecording,
): Promise<ClipRender> {
  const { videoId, clipIndex } = message;
  const resolved = await resolveBot(video.tenantId, clip.botUid, deps);
  if (!resolved) throw new JobFailedError('bot_not_found', `its bot "${clip.botUid}" no longer exists`);
  const { own } = resolved;
  // A bot of the account renders as it was when the video was accepted, whatever it is now (replaced, preparing,
  // failed): its pinned look, under looks/ or retired-looks/. A clip with no pin takes the bot as it is now.
  const pin = own && (clip.pinnedBot ?? pinOf(own));
  if (own && !pin)
    throw new JobFailedError('bot_not_ready', `its bot "${clip.botUid}" was replaced after the video was accepted and is ${own.status}`);
  // Deleted and made again under the same uid: another bot, whose record does not list the pinned look.
  if (own && pin && !ownsLook(own, pin))
    throw new JobFailedError('bot_not_found', `its bot "${clip.botUid}" was deleted after the video was accepted`);
  const bot = own ? toBot(own, pin) : resolved.bot;
  const mode = video.createVideo ? 'video' : 'voice';
  const voice = voiceToSpeak(bot.voice, clip.voice, deps.voices);
  // The lexicon as it is now: only the entries the clip's text uses count, so a change elsewhere in it keeps the cache.
  // A recording's transcript is read by espeak-ng to be aligned (synthesis-alignment.ts), so the lexicon applies there too.
  const pronunciations = pronunciationsFor(clip.text, (await deps.lexicons.get(video.tenantId))?.entries ?? []);
  const spec = renderSpecOf(clip, { bot, voice, mode, shape: video.shape, pronunciations, recordingSha256: recording?.sha256 });
  const hash = renderCacheKey(video.tenantId, RENDERER_VERSION, spec);
  const keptKey = keptObjectKey(hash, mode);
  const renderKey = renderObjectKey(hash, mode);
  return { videoId, video, clip, clipIndex, bot, own, pin, spec, hash, keptKey, renderKey, recording };
}

/** The clip's render in the cache: kept, else a temporary one young enough; either with its cues beside it. */
async function findInCache(
  { videoId, clipIndex, hash, keptKey, renderKey }: ClipRender,
  deps: ClipJobDeps,
): Promise<{ found?: { key: string; head: ObjectHead }; rendered?: ObjectHead }> {
  const kept = await deps.objects.head(keptKey);
  const rendered = kept ? undefined : await deps.objects.head(renderKey);
  let found: { key: string; head: ObjectHead } | undefined;
  if (kept) found = { key: keptKey, head: kept };
  else if (rendered && isReusableRender(rendered.lastModified, deps.now())) found = { key: renderKey, head: rendered };
  // A render is stored after its cues, so a cached clip has them; one whose cues were removed (by hand) is
  // rendered again, once, so that its video has captions.
  if (found && !(await deps.objects.head(cuesObjectKey(found.key)))) {
    logger.info('cached clip has no captions; rendering again', { video_id: videoId, clip_index: clipIndex, content_hash: hash });
    found = undefined;
  }
  return { found, rendered };
}

/** Renders the clip afresh and stores it, its cues and its poster under its content address. */
async function renderAndStore(job: ClipRender, result: ClipResult, deps: ClipJobDeps): Promise<void> {
  const { videoId, clip, clipIndex, bot, own, pin, spec, keptKey, renderKey, recording } = job;
  const started = Date.now();
  const runsBefore = mediaRunsStarted();
  const workDir = await makeWorkDir('render', `${videoId}-${clipIndex}`);
  let background: Promise<BackgroundMedia> | undefined;
  let images: (ImageLayer & { image: Promise<ImageMedia> })[] = [];
  let backgroundMs = 0;
  try {
    // The background and images are read from the bucket and inspected while the speech is synthesised.
    ({ background, images } = clipMediaOf(job, deps, workDir, () => (backgroundMs = Date.now() - started)));
    const lookDirectory = own && pin ? await deps.lookDirectory(own, pin.look) : undefined;
    const output = await deps
      .renderClip(
        engineInputOf(spec, {
          bot,
          lookDirectory,
          background,
          imageLayers: images,
          workDir,
          speech: recording
            ? new RecordedSpeech(
                recording.path,
                transcriptAlignmentOf(findVoice(spec.bot.voice.id, deps.voices)),
                deps.renderDeadline?.(),
                recordingSecondsFor(job.video, limits.maxRecordedSpeechSeconds),
                recordingCheckpoints(job, deps.videos),
              )
            : deps.speechFor(spec.bot.voice),
          budgetScale: deps.renderBudgetScale,
          deadline: deps.renderDeadline?.(),
        }),
      )
      .catch((error: unknown) => {
        throw renderFailure(error, job, background);
      });
    // Whatever the engine did with them, a background or an image that failed fails the clip.
    await background;
    await Promise.all(images.map(({ image }) => image));
    result.durationSeconds = output.durationSeconds;
    result.objectKey = clip.reusable ? keptKey : renderKey;
    const uploadStarted = Date.now();
    await storeRender(job, result.objectKey, output, deps);
    result.renderMs = Date.now() - started;
    const t = output.timings;
    // Where the render's time went (npm run bench reads these into its profile).
    logger.info('clip rendered', {
      video_id: videoId,
      clip_index: clipIndex,
      duration_s: output.durationSeconds,
      render_ms: result.renderMs,
      background_ms: backgroundMs,
      upload_ms: Date.now() - uploadStarted,
      ffmpeg_runs: mediaRunsStarted() - runsBefore,
      cues: output.cues.length,
      ...(clip.captions === 'burn' && { captions_burned: output.captionsBurned ?? false }),
      ...(t && { speech_ms: t.speechMs, setup_ms: t.setupMs, first_frame_ms: t.firstFrameMs, draw_ms: t.drawMs, encode_ms: t.encodeMs }),
    });
    recordClipRendered(result.renderMs, output.durationSeconds);
  } finally {
    // A render that failed before it needed the background leaves no download writing into a removed dir.
    await background?.catch(() => undefined);
    await Promise.allSettled(images.map(({ image }) => image));
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * The clip's background and images, read from the bucket and inspected side by side, each image scaled down to its
 * box, within one picture budget (they are decoded one at a time). Their failures are handled where the engine
 * awaits them; until then they do not count as unhandled.
 */
function clipMediaOf({ video, videoId, spec }: ClipRender, deps: ClipJobDeps, workDir: string, backgroundDone: () => void) {
  if (spec.mode !== 'video') return { background: undefined, images: [] };
  const budget = new PictureBudget();
  const key = (use: string, url: string) => fetchedMediaKey(video.tenantId, videoId, use, url);
  const background = spec.background
    ? deps
        .fetchBackground(key(backgroundRules.code, spec.background), join(workDir, 'background'), workDir, budget, video.tenantId)
        .finally(backgroundDone)
    : undefined;
  const images = imageLayersOf(spec).map(({ url, subject, ...layer }, i) => ({
    ...layer,
    image: deps.fetchImage(key(imageRules(subject).code, url), join(workDir, `image-${i}`), subject, imageFitOf(spec.frame, layer.size), budget),
  }));
  background?.catch(() => undefined);
  for (const { image } of images) image.catch(() => undefined);
  return { background, images };
}

/** Stores a rendered clip: its cues and poster first, then the clip itself, with the retention of a kept or temporary clip. */
async function storeRender({ clip, spec: { mode } }: ClipRender, objectKey: string, output: RenderClipOutput, deps: ClipJobDeps): Promise<void> {
  // The clip's cues and poster live beside it, under the same content address and retention, so a cached
  // or kept clip keeps its captions and poster. Written first: a clip object found in the cache always has
  // its cues and its poster.
  await Promise.all([
    deps.objects.putBytes(cuesObjectKey(objectKey), serialiseClipCues(output.cues, output.words), {
      contentType: CUES_CONTENT_TYPE,
      tags: clip.reusable ? KEPT : TEMPORARY,
    }),
    mode === 'video' &&
      output.posterPath &&
      deps.objects.putFile(posterObjectKey(objectKey), output.posterPath, {
        contentType: POSTER_CONTENT_TYPE,
        tags: clip.reusable ? KEPT : TEMPORARY,
      }),
  ]);
  await deps.objects.putFile(objectKey, output.path, {
    contentType: output.contentType,
    tags: clip.reusable ? KEPT : TEMPORARY,
    metadata: { [DURATION_METADATA]: String(output.durationSeconds) },
  });
}

/** A reusable clip: its render and what goes beside it copied under kept/, and the clip recorded in the library. */
async function keepClip({ video, clip, spec: { mode }, hash, keptKey, renderKey }: ClipRender, result: ClipResult, deps: ClipJobDeps): Promise<void> {
  if (result.objectKey !== keptKey) {
    // Found among temporary renders: keep a copy of its own, which no later temporary render can retag.
    await deps.objects.copy(cuesObjectKey(renderKey), cuesObjectKey(keptKey), { tags: KEPT });
    if (mode === 'video' && (await deps.objects.head(posterObjectKey(renderKey)))) {
      await deps.objects.copy(posterObjectKey(renderKey), posterObjectKey(keptKey), { tags: KEPT });
    }
    await deps.objects.copy(renderKey, keptKey, { tags: KEPT });
    result.objectKey = keptKey;
  }
  const clipUid = clip.reusedClipUid ?? keptClipUid(hash);
  // Kept without its pin: a request naming the kept clip pins its bot as it is then.
  const { index: _i, clipName, reusedClipUid: _r, pinnedBot: _p, ...spec } = clip;
  await deps.clips.put({
    tenantId: video.tenantId,
    clipUid,
    clipName,
    contentHash: hash,
    objectKey: keptKey,
    durationSeconds: result.durationSeconds ?? 0,
    botUid: clip.botUid,
    createVideo: video.createVideo,
    shape: video.shape,
    createdAt: deps.now().toISOString(),
    spec,
  });
}

/** The render queue's job: one clip of a video, under the one failure policy of queue jobs (functions/commons/jobs.ts). */
export const renderJob = videoJob<RenderClipMessage, ClipJobDeps>({
  name: 'render',
  fatal: {
    code: 'render_failed',
    message: (attempts: number) =>
      `could not be rendered${attempts > 1 ? ` after ${attempts} attempts` : ''}; if it has a background, check that it plays in a browser, then create the video again`,
  },
  run: runClipJob,
});
