import { writeFile } from 'node:fs/promises';
import type { CreateVideoRequest, SpokenClip, Video } from '../types.ts';
import type { Vidbot } from '../vidbot.ts';
import { type Io, print, UsageError } from './output.ts';
import { progressPrinter } from './progress.ts';

export interface CreateFlags {
  bot?: string;
  text?: string;
  voice?: string;
  position?: string;
  size?: string;
  aspect?: string;
  resolution?: string;
  captions?: string;
  webhook?: string;
  wait?: boolean;
  out?: string;
  timeout?: string;
}

/** The webhook a video needs: the one given, else the account's inbox (GET /v1/inbox's inbox_url). */
async function webhookOf(vidbot: Vidbot, given: string | undefined): Promise<string> {
  if (given) return given;
  const { inbox_url } = (await vidbot.inbox()) as { inbox_url?: string };
  if (!inbox_url) throw new UsageError('this service has no inbox: pass --webhook URL');
  return inbox_url;
}

export function timeoutMs(value: string | undefined): number {
  if (value === undefined) return 15 * 60_000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a number of seconds, got "${value}"`);
  return seconds * 1000;
}

export async function createCommand(vidbot: Vidbot, io: Io, flags: CreateFlags): Promise<void> {
  if (!flags.bot || !flags.text) throw new UsageError('create needs --bot BOT_UID and --text "…"');
  if (flags.out && !flags.wait) throw new UsageError('--out needs --wait (the file exists once the video is completed)');
  const clip: SpokenClip = { bot_uid: flags.bot, text: flags.text };
  if (flags.voice) clip.voice = flags.voice;
  if (flags.position) clip.bot_position = flags.position;
  if (flags.size) clip.bot_size = flags.size as SpokenClip['bot_size'];
  // The service checks every value and names the field it refuses; the CLI passes them as given.
  const request: CreateVideoRequest = {
    webhook: await webhookOf(vidbot, flags.webhook),
    clips: [clip],
    ...(flags.aspect && { aspect_ratio: flags.aspect as CreateVideoRequest['aspect_ratio'] }),
    ...(flags.resolution && { resolution: flags.resolution as CreateVideoRequest['resolution'] }),
    ...(flags.captions && { captions: flags.captions as CreateVideoRequest['captions'] }),
  };
  const created = await vidbot.createVideo(request);
  if (!flags.wait) return print(io, created, () => `${created.video_id} ${created.status}: ${created.url}`);
  if (!io.json) io.err(`${created.video_id} accepted`);
  const video = await vidbot.waitForVideo(created.video_id, { timeoutMs: timeoutMs(flags.timeout), onProgress: progressPrinter(io) });
  if (flags.out) await saveVideo(vidbot, video.video_id, flags.out);
  print(io, video, () => summary(video) + (flags.out ? `\nsaved ${flags.out}` : ''));
}

export async function videoCommand(vidbot: Vidbot, io: Io, videoId: string | undefined) {
  if (!videoId) throw new UsageError('video needs an id: vidbot video vid_…');
  const video = await vidbot.getVideo(videoId);
  print(io, video, () => summary(video));
}

export async function downloadCommand(vidbot: Vidbot, io: Io, videoId: string | undefined, out: string | undefined) {
  if (!videoId) throw new UsageError('download needs an id: vidbot download vid_… [--out file]');
  const file = out ?? `${videoId}.mp4`;
  const { size, contentType } = await saveVideo(vidbot, videoId, file);
  print(io, { video_id: videoId, file, size_bytes: size, content_type: contentType }, () => `saved ${file} (${size} bytes, ${contentType})`);
}

async function saveVideo(vidbot: Vidbot, videoId: string, file: string) {
  const { bytes, contentType } = await vidbot.download(videoId);
  await writeFile(file, bytes);
  return { size: bytes.byteLength, contentType };
}

function summary(video: Video): string {
  const lines = [`${video.video_id} ${video.status} ${video.aspect_ratio} ${video.resolution}`];
  if (video.output)
    lines.push(`  ${video.output.kind}, ${video.output.duration_seconds} s, ${video.output.size_bytes} bytes: ${video.output.download_endpoint}`);
  if (video.error) lines.push(`  error ${video.error.code}: ${video.error.message}`);
  for (const clip of video.clips)
    lines.push(`  clip ${clip.index} ${clip.bot_uid} ${clip.status}${clip.duration_seconds ? ` ${clip.duration_seconds} s` : ''}`);
  return lines.join('\n');
}
