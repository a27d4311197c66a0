/**
 * The clips the create and cache-key tests share: a plain clip of Ava, the same clip kept in an account's library
 * (clip_abc), and the create use case on in-memory ports.
 */
import type { AccountBot } from '#domain/account-bot';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { ClipSpec } from '#domain/clip';
import type { CreateVideoCommand } from '#domain/create-request';
import type { KeptClip, VideoRepository } from '#domain/ports';
import { DEFAULT_SHAPE } from '#domain/shape';
import type { VideoRecord } from '#domain/video';
import { type CreateVideoDeps, createVideo } from '#domain/videos';

/** Ava saying "Hello" at the bottom right: every field at its default. */
export const PLAIN_CLIP: ClipSpec = {
  index: 0,
  clipName: 'Intro',
  botUid: 'bot_ava',
  text: 'Hello',
  position: 'bottom-right',
  removeBotBackground: false,
  backgroundVolume: 0,
  transitions: {},
  reusable: true,
};

/** The plain clip kept as clip_abc by acct_1, in the default shape; `spec` fields are merged into the plain one. */
export function keptClip(overrides: Partial<Omit<KeptClip, 'spec'>> & { spec?: Partial<KeptClip['spec']> } = {}): KeptClip {
  const { index: _index, clipName: _clipName, ...spec } = PLAIN_CLIP;
  const { spec: specOverrides, ...fields } = overrides;
  const botUid = specOverrides?.botUid ?? fields.botUid ?? spec.botUid;
  return {
    tenantId: 'acct_1',
    clipUid: 'clip_abc',
    clipName: 'Intro',
    contentHash: 'abc',
    objectKey: 'kept/abc.mp4',
    durationSeconds: 2,
    shape: DEFAULT_SHAPE,
    botUid,
    createVideo: true,
    createdAt: '2026-11-23T00:00:00Z',
    ...fields,
    spec: { ...spec, botUid, ...specOverrides },
  };
}

export interface InMemoryLibrary {
  /** The kept clip found by its clip_uid; nothing else is in the library. */
  kept?: KeptClip;
  /** The account's own bot found by its tenant and uid. */
  accountBot?: AccountBot | undefined;
  /** The account is a test account (a test key's). */
  test?: boolean;
}

/** The create use case on in-memory ports: the built-in bots, the library as given; returns the videos it created. */
export async function createOnMemory(command: CreateVideoCommand, library: InMemoryLibrary = {}): Promise<VideoRecord[]> {
  const { kept, accountBot, test } = library;
  const created: VideoRecord[] = [];
  await createVideo(command, { tenantId: 'acct_1', keyId: 'key_1' }, {
    bots: { list: async () => [...BUILT_IN_BOTS], get: async (uid) => BUILT_IN_BOTS.find((b) => b.uid === uid) },
    accountBots: {
      get: async (tenantId: string, uid: string) => (tenantId === accountBot?.tenantId && uid === accountBot.uid ? accountBot : undefined),
    },
    accounts: { get: async () => (test ? { tenantId: 'acct_1', name: 'tests', createdAt: '2026-11-23T00:00:00Z', test } : undefined) },
    voices: { polly: false },
    videos: { create: async (v: VideoRecord) => void created.push(v), countInProgress: async () => 0 } as unknown as VideoRepository,
    clips: { get: async (_tenant, uid) => (uid === kept?.clipUid ? kept : undefined), put: async () => undefined, list: async () => ({ items: [] }) },
    renderQueue: { send: async () => undefined, sendBatch: async () => undefined },
    now: () => new Date('2026-11-23T00:00:00Z'),
    newVideoId: () => 'vid_new',
  } satisfies CreateVideoDeps);
  return created;
}
