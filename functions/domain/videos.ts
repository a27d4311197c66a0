import type { Bot } from './bot.ts';
import { BUILT_IN_BOTS } from './bot.ts';
import type { ClipInput, ClipReference, ClipSpec } from './clip.ts';
import { CLIP_DEFAULTS } from './clip.ts';
import type { CreateVideoCommand } from './create-request.ts';
import { InvalidRequest, type FieldProblem } from './errors.ts';
import { limits } from './limits.ts';
import type { RenderClipMessage } from './messages.ts';
import { ensureRoomForAnotherVideo } from './fair-use.ts';
import type { AccountStore, BotCatalog, ClipLibrary, KeptClip, MessageQueue, VideoRepository } from './ports.ts';
import type { VideoRecord } from './video.ts';
import { findVoice, type VoiceOptions } from './voices.ts';

export interface CreateVideoDeps {
  bots: BotCatalog;
  /** Each account's limit of videos in progress. */
  accounts: Pick<AccountStore, 'get'>;
  videos: VideoRepository;
  clips: ClipLibrary;
  renderQueue: MessageQueue<RenderClipMessage>;
  now: () => Date;
  newVideoId: () => string;
  /** Which voices the deployment speaks: a clip's `voice` must be one of them. */
  voices: VoiceOptions;
}

/** Turns validated clips into stored specs: checks every bot and voice exists, applies defaults, resolves clip_uid references. */
async function resolveClips(
  inputs: (ClipInput | ClipReference)[],
  tenantId: string,
  deps: Pick<CreateVideoDeps, 'bots' | 'clips' | 'voices'>,
): Promise<ClipSpec[]> {
  const problems: FieldProblem[] = [];
  const specs: ClipSpec[] = [];
  const botsByUid = new Map((await deps.bots.list()).map((b) => [b.uid, b] as const));
  for (const [index, input] of inputs.entries()) {
    if ('clip_uid' in input) {
      const kept: KeptClip | undefined = await deps.clips.get(tenantId, input.clip_uid);
      if (!kept) {
        problems.push({ path: `clips[${index}].clip_uid`, message: `no kept clip "${input.clip_uid}"; list yours with GET /v1/clips` });
        continue;
      }
      specs.push({ ...kept.spec, index, clipName: input.clip_name ?? kept.clipName, reusedClipUid: kept.clipUid, reusable: true });
      continue;
    }
    const bot: Bot | undefined = botsByUid.get(input.bot_uid);
    if (!bot) {
      problems.push({ path: `clips[${index}].bot_uid`, message: `unknown bot "${input.bot_uid}"; list the bots with POST /v1/bot/ or GET /v1/bot` });
      continue;
    }
    if (input.voice !== undefined && !findVoice(input.voice, deps.voices)) {
      problems.push({ path: `clips[${index}].voice`, message: `unknown voice "${input.voice}"; list the voices with GET /v1/voices` });
      continue;
    }
    specs.push({
      index,
      clipName: input.clip_name || `Clip ${index + 1}`,
      botUid: bot.uid,
      text: input.text.trim(),
      ...(input.voice !== undefined && { voice: input.voice }),
      position: input.bot_position ?? bot.defaultPosition,
      removeBotBackground: input.remove_bot_background,
      background: input.background,
      backgroundVolume: input.background ? input.background_volume : 0,
      transitions: input.transitions,
      reusable: input.reusable_clip,
    });
  }
  if (problems.length) throw new InvalidRequest(problems);
  return specs;
}

export interface CreatedVideo {
  videoId: string;
  status: 'queued';
  createVideo: boolean;
  clipCount: number;
  createdAt: string;
}

/**
 * Stores the video as queued and enqueues one render message per clip, so the clips render in parallel.
 * An invalid request is refused (InvalidRequest) before the account's room is checked (TooManyVideosInProgress).
 */
export async function createVideo(
  command: CreateVideoCommand,
  caller: { tenantId: string; keyId: string },
  deps: CreateVideoDeps,
): Promise<CreatedVideo> {
  const clips = await resolveClips(command.clips, caller.tenantId, deps);
  await ensureRoomForAnotherVideo(caller.tenantId, deps);
  const now = deps.now();
  const video: VideoRecord = {
    videoId: deps.newVideoId(),
    tenantId: caller.tenantId,
    keyId: caller.keyId,
    status: 'queued',
    createVideo: command.createVideo,
    webhookUrl: command.webhookUrl,
    clips,
    clipResults: Object.fromEntries(clips.map((c) => [String(c.index), { status: 'queued' as const }])),
    clipCount: clips.length,
    renderedCount: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    deadlineAt: Math.floor(now.getTime() / 1000) + limits.videoDeadlineSeconds,
    delivery: { state: 'pending', attempts: [] },
  };
  await deps.videos.create(video);
  try {
    await deps.renderQueue.sendBatch(clips.map((c) => ({ kind: 'render-clip', videoId: video.videoId, clipIndex: c.index })));
  } catch (error) {
    // The caller gets an error and no id: leave no video behind that would later fail and call its webhook.
    // (Render messages already sent find no video and are dropped.)
    await deps.videos.delete(video.videoId);
    throw error;
  }
  return { videoId: video.videoId, status: 'queued', createVideo: video.createVideo, clipCount: clips.length, createdAt: video.createdAt };
}

/** A kept clip's uid is derived from its content address: the same clip kept twice is one clip. */
export const keptClipUid = (contentHash: string) => `clip_${contentHash.slice(0, 24)}`;

export const defaultsForDocs = { ...CLIP_DEFAULTS, bot_position: `the bot's default_position (${BUILT_IN_BOTS.map((b) => `${b.uid}: ${b.defaultPosition}`).join(', ')})` };
