import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { videoJob } from '#commons/jobs';
import { logger } from '#commons/logger';
import { recordVideoCompleted } from '#commons/metrics';
import { makeWorkDir } from '#commons/workdirs';
import { captionObjectKey, cuesObjectKey, outputObjectKey, posterObjectKey, retentionBeside, videoPosterKey } from '#domain/bucket-layout';
import { type Cue, joinClipCues, parseClipCues, SRT_CONTENT_TYPE, toSrt, toWebVtt, VTT_CONTENT_TYPE } from '#domain/captions';
import { posterSecondsOf } from '#domain/clip';
import { JobFailedError } from '#domain/errors';
import { fetchedMediaKey } from '#domain/fetched-media';
import type { AssembleMessage, DeliverMessage, FetchMediaMessage } from '#domain/messages';
import type { MusicSpec } from '#domain/music';
import { refuseOverlongVideo } from '#domain/overlong-video';
import type { MessageQueue, ObjectStore, VideoRepository } from '#domain/ports';
import { joinClipWords, type SpokenWord, toWordsJson, type VideoWord, WORDS_CONTENT_TYPE, wordsOfCues } from '#domain/spoken-words';
import type { VideoOutput, VideoRecord } from '#domain/video';
import { eventIdFor, isTerminal, outputObjectKeys } from '#domain/video';
import type { ConcatInput, ConcatOutput } from '#media/concat';
import { POSTER_CONTENT_TYPE, VIDEO_CONTENT_TYPE, VOICE_CONTENT_TYPE } from '#media/formats';
import type { MixMusicInput } from '#media/music';
import { musicRemoteMedia, musicRules } from '#media/remote-media';

export interface AssembleDeps {
  videos: VideoRepository;
  objects: ObjectStore;
  notifyQueue: MessageQueue<DeliverMessage>;
  /** The fetch stage: a video whose music file is not in the bucket yet goes there first (messages.ts). */
  fetchQueue: MessageQueue<FetchMediaMessage>;
  concat: (input: ConcatInput) => Promise<ConcatOutput>;
  /**
   * Writes a JPEG poster of a video file's frame at `atSeconds` to `posterPath` (functions/media/poster.ts extractPoster): for a
   * first clip whose poster is missing beside it (removed by hand).
   */
  poster: (videoPath: string, atSeconds: number, posterPath: string) => Promise<string>;
  /**
   * The video's music bed as a WAV in `workDir`, at most `seconds` long (functions/assemble/music.ts musicBed: a
   * preset, or the caller's file, which the fetch stage stored under `fetchedKey`, decoded).
   */
  musicBed: (music: MusicSpec, workDir: string, seconds: number, fetchedKey: string, deadline?: number) => Promise<string>;
  /** Lays the bed under the joined video, ducked under its speech (functions/media/music.ts mixMusic). */
  mixMusic: (input: MixMusicInput) => Promise<{ path: string; sizeBytes: number }>;
  /** How long a claim on a video's assembly holds (infra/wiring.ts assemblyLeaseSeconds). */
  assemblyLeaseSeconds: number;
  /**
   * When this run's media work (the join, the music's decode and mix) must have ended, in ms since the epoch: the
   * function's own time limit less a margin, so that our watchdog, not the platform, stops a slow run (none: no cut).
   */
  mediaDeadline?: () => number | undefined;
}

/**
 * Joins a video's rendered clips in order (stream copy, no re-encode; one clip without music is copied within the
 * bucket), lays its music under it (the sound alone is encoded again), stores the result and completes the video. The claim is a lease (a duplicate message stands down while another run holds it) and the completion
 * a conditional write: a redelivered message cannot complete a video twice, and a video that failed
 * meanwhile is left alone, its output removed.
 */
async function runAssembleJob(message: AssembleMessage, deps: AssembleDeps): Promise<void> {
  const { videoId } = message;
  const video = await deps.videos.get(videoId);
  if (!video || isTerminal(video.status)) return logger.info('nothing to assemble', { video_id: videoId, status: video?.status });
  // A music file at a URL is waited for by the fetch stage, which queues this assembly again once it is in the bucket.
  if (!message.fetched && musicRemoteMedia(video.music).length > 0) {
    logger.info('music to fetch first', { video_id: videoId });
    return deps.fetchQueue.send({ kind: 'fetch-media', tenantId: message.tenantId, videoId });
  }
  if (!(await deps.videos.claimAssembly(videoId, deps.assemblyLeaseSeconds))) {
    return logger.info('assembly not claimable: another run holds it, or the video is not ready', { video_id: videoId });
  }

  const clipSeconds = video.clips.map((clip) => video.clipResults[String(clip.index)]?.durationSeconds ?? 0);
  refuseOverlongVideo(video, clipSeconds);

  const mode = video.createVideo ? 'video' : 'voice';
  const kind = video.createVideo ? 'video' : 'audio';
  const started = Date.now();
  const objectKey = outputObjectKey(video.tenantId, videoId, kind);
  const workDir = await makeWorkDir('assemble', videoId);
  try {
    const target: Target = { mode, kind, objectKey, workDir };
    const download = clipDownloader(deps, video, target);
    // A one-clip video without music is its clip already (faststart MP4, or MP3): copied within the bucket, not joined.
    const single = video.clips.length === 1 && !video.music;
    const { output, captions, parts } = single ? await copySingleClip(deps, video, target) : await joinClips(deps, video, target, download);
    if (mode === 'video')
      output.posterKey = await storePoster(deps, video, output, async () => parts[0] ?? (await download(video.clips[0]!)), workDir);
    output.captions = await storeCaptions(deps, video, captions);
    await finish(deps, video, output, started);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Where a video's assembly goes: a video (MP4) or a voice (MP3), its object's key, and the run's work directory. */
interface Target {
  mode: 'video' | 'voice';
  kind: VideoOutput['kind'];
  objectKey: string;
  workDir: string;
}
type Clip = VideoRecord['clips'][number];
interface Assembled {
  output: VideoOutput;
  captions: VideoCaptions;
  /** The clips' files in the work directory, in order (none when the one clip was copied within the bucket). */
  parts: string[];
}

/** Downloads a clip's rendered file into the work directory; a render no longer stored fails the video clearly. */
function clipDownloader(deps: AssembleDeps, video: VideoRecord, target: Target): (clip: Clip) => Promise<string> {
  return async (clip) => {
    const result = video.clipResults[String(clip.index)];
    if (!result?.objectKey) throw new Error(`clip ${clip.index} of ${video.videoId} has no rendered object`);
    const path = join(target.workDir, `part-${String(clip.index).padStart(3, '0')}${target.mode === 'video' ? '.mp4' : '.mp3'}`);
    if (!(await deps.objects.getToFile(result.objectKey, path))) {
      // The render cache does not reuse a temporary render close to its expiry, so this takes a render
      // removed some other way (by hand, or a lifecycle change). Fail clearly rather than retry in vain.
      throw new JobFailedError('render_expired', 'its rendered clip is no longer stored; create the video again', clip.index);
    }
    return path;
  };
}

/** The one clip of a video without music, copied within the bucket as the video. */
async function copySingleClip(deps: AssembleDeps, video: VideoRecord, target: Target): Promise<Assembled> {
  const { mode, kind, objectKey, workDir } = target;
  const clip = video.clips[0]!;
  const result = video.clipResults[String(clip.index)];
  const sizeBytes = result?.objectKey ? (await deps.objects.head(result.objectKey))?.sizeBytes : undefined;
  if (!result?.objectKey || sizeBytes === undefined)
    throw new JobFailedError('render_expired', 'its rendered clip is no longer stored; create the video again', clip.index);
  await deps.objects.copy(result.objectKey, objectKey, { tags: {} });
  const durationSeconds = result.durationSeconds ?? 0;
  const contentType = mode === 'video' ? VIDEO_CONTENT_TYPE : VOICE_CONTENT_TYPE;
  const output: VideoOutput = { kind, objectKey, contentType, durationSeconds, sizeBytes, clipDurations: [durationSeconds] };
  return { output, captions: await readVideoCaptions(deps, video, output.clipDurations, workDir), parts: [] };
}

/** The clips downloaded, joined in order (one is used as it is), the music laid under them, stored as the video. */
async function joinClips(deps: AssembleDeps, video: VideoRecord, target: Target, download: (clip: Clip) => Promise<string>): Promise<Assembled> {
  const { mode, kind, objectKey, workDir } = target;
  const parts: string[] = [];
  const clipDurations: number[] = [];
  for (const clip of video.clips) {
    parts.push(await download(clip));
    clipDurations.push(video.clipResults[String(clip.index)]?.durationSeconds ?? 0);
  }
  const joined =
    parts.length === 1
      ? { path: parts[0]!, contentType: mode === 'video' ? VIDEO_CONTENT_TYPE : VOICE_CONTENT_TYPE, durationSeconds: clipDurations[0]! }
      : await deps.concat({ parts, mode, seconds: clipDurations.reduce((sum, s) => sum + s, 0), deadline: deps.mediaDeadline?.(), workDir });
  const captions = await readVideoCaptions(deps, video, clipDurations, workDir);
  const file = video.music
    ? await addMusic(deps, video, video.music, { mode, path: joined.path, seconds: joined.durationSeconds, cues: captions.cues, workDir })
    : joined.path;
  const { sizeBytes } = await deps.objects.putFile(objectKey, file, { contentType: joined.contentType });
  const output: VideoOutput = { kind, objectKey, contentType: joined.contentType, durationSeconds: joined.durationSeconds, sizeBytes, clipDurations };
  return { output, captions, parts };
}

/**
 * The video's poster: the first clip's, stored beside it by its render (posterSecondsOf: the presenter in view).
 * When it is missing (removed by hand) it is taken from the clip itself, and stored beside it (with the clip's
 * retention), so that the next video starting with this clip copies it. Returns the poster's key.
 */
async function storePoster(
  deps: AssembleDeps,
  video: VideoRecord,
  output: VideoOutput,
  firstClipFile: () => Promise<string>,
  workDir: string,
): Promise<string> {
  const first = video.clips[0]!;
  const firstKey = video.clipResults[String(first.index)]!.objectKey!;
  const posterKey = videoPosterKey(video.tenantId, video.videoId);
  if (await deps.objects.head(posterObjectKey(firstKey))) {
    await deps.objects.copy(posterObjectKey(firstKey), posterKey, { tags: {} });
    return posterKey;
  }
  const at = posterSecondsOf(first.transitions, output.clipDurations[0] ?? 1);
  const poster = await deps.poster(await firstClipFile(), at, join(workDir, 'poster.jpg'));
  await Promise.all([
    deps.objects.putFile(posterKey, poster, { contentType: POSTER_CONTENT_TYPE }),
    deps.objects.putFile(posterObjectKey(firstKey), poster, { contentType: POSTER_CONTENT_TYPE, tags: retentionBeside(firstKey) }),
  ]);
  return posterKey;
}

/**
 * The music under the joined file: its bed (looped to length by the mix) ducked wherever a caption cue shows,
 * which is where a voice speaks. Returns the mixed file.
 */
async function addMusic(
  deps: AssembleDeps,
  video: VideoRecord,
  music: MusicSpec,
  joined: { mode: 'video' | 'voice'; path: string; seconds: number; cues: Cue[]; workDir: string },
): Promise<string> {
  const fetchedKey = fetchedMediaKey(video.tenantId, video.videoId, musicRules.code, music.url ?? '');
  const bed = await deps.musicBed(music, joined.workDir, joined.seconds, fetchedKey, deps.mediaDeadline?.());
  const speech = joined.cues.map(({ startSeconds, endSeconds }) => ({ startSeconds, endSeconds }));
  const mixed = await deps.mixMusic({
    input: joined.path,
    mode: joined.mode,
    music: bed,
    volume: music.volume,
    speech,
    durationSeconds: joined.seconds,
    deadline: deps.mediaDeadline?.(),
    workDir: joined.workDir,
  });
  return mixed.path;
}

interface VideoCaptions {
  cues: Cue[];
  words: VideoWord[];
}

/**
 * The video's cues and words: each clip's (stored beside its render) shifted to where the clip starts. A clip whose
 * cues are missing (removed by hand) contributes none; the video is not failed for it. A clip whose stored cues
 * carry no words contributes its cues' words.
 */
async function readVideoCaptions(deps: AssembleDeps, video: VideoRecord, clipDurations: number[], workDir: string): Promise<VideoCaptions> {
  const clips: { clip: number; cues: Cue[]; words: SpokenWord[]; durationSeconds: number }[] = [];
  for (const [position, clip] of video.clips.entries()) {
    const result = video.clipResults[String(clip.index)];
    const path = join(workDir, `cues-${String(clip.index).padStart(3, '0')}.json`);
    const found = result?.objectKey ? await deps.objects.getToFile(cuesObjectKey(result.objectKey), path) : false;
    if (!found) logger.warn('clip has no stored cues; its captions are left out', { video_id: video.videoId, clip_index: clip.index });
    const durationSeconds = clipDurations[position] ?? result?.durationSeconds ?? 0;
    const stored = found ? parseClipCues(await readFile(path, 'utf8')) : { cues: [] };
    clips.push({ clip: clip.index, cues: stored.cues, words: stored.words ?? wordsOfCues(stored.cues), durationSeconds });
  }
  return { cues: joinClipCues(clips), words: joinClipWords(clips) };
}

/** The video's captions, written as WebVTT and SubRip, and its words as JSON, next to the video. */
async function storeCaptions(deps: AssembleDeps, video: VideoRecord, { cues, words }: VideoCaptions): Promise<VideoOutput['captions']> {
  const key = (format: 'vtt' | 'srt' | 'words.json') => captionObjectKey(video.tenantId, video.videoId, format);
  const captions = { vttKey: key('vtt'), srtKey: key('srt'), wordsKey: key('words.json') };
  await deps.objects.putBytes(captions.vttKey, toWebVtt(cues), { contentType: VTT_CONTENT_TYPE });
  await deps.objects.putBytes(captions.srtKey, toSrt(cues), { contentType: SRT_CONTENT_TYPE });
  await deps.objects.putBytes(captions.wordsKey, toWordsJson(words), { contentType: WORDS_CONTENT_TYPE });
  return captions;
}

/** Completes the video with its stored output and queues its event, or discards the output if the video ended. */
async function finish(deps: AssembleDeps, video: Pick<VideoRecord, 'videoId' | 'tenantId'>, output: VideoOutput, started: number): Promise<void> {
  const { videoId, tenantId } = video;
  const eventId = eventIdFor(videoId, 'video.completed');
  if (await deps.videos.complete(videoId, output, eventId)) {
    logger.info('video completed', {
      video_id: videoId,
      duration_s: output.durationSeconds,
      size_bytes: output.sizeBytes,
      assemble_ms: Date.now() - started,
    });
    recordVideoCompleted();
    await deps.notifyQueue.send({ kind: 'deliver', tenantId, videoId, eventId, attempt: 1 });
  } else {
    for (const key of outputObjectKeys(output)) await discardOutput(deps, videoId, key);
  }
}

/**
 * The video ended (or was deleted) while this run assembled it: the output just uploaded belongs to nobody,
 * and no lifecycle rule covers outputs/, so it is deleted, unless the video completed with this very key
 * (another run's output, which this upload only overwrote with the same clips).
 */
async function discardOutput(deps: AssembleDeps, videoId: string, objectKey: string) {
  const current = await deps.videos.get(videoId);
  if (current?.status === 'completed' && current.output && outputObjectKeys(current.output).includes(objectKey)) return;
  await deps.objects.delete(objectKey);
  logger.info('video ended during assembly; its output was removed', { video_id: videoId, status: current?.status ?? 'deleted' });
}

/** The assemble queue's job: runAssembleJob under the one failure policy of queue jobs (functions/commons/jobs.ts). */
export const assembleJob = videoJob<AssembleMessage, AssembleDeps>({
  name: 'assembly',
  fatal: { code: 'assembly_failed', message: () => 'the rendered clips could not be joined into one video; create the video again' },
  run: runAssembleJob,
});
