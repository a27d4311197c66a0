/**
 * The prepare job's collaborators for its integration tests: the account bots on dynalite (started once per file),
 * a folder standing in for the bucket and recording queues (fresh for each test), and the calls the tests share.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { parsePutBot } from '#domain/account-bot-request';
import { type AccountBotDeps, putAccountBot } from '#domain/account-bots';
import type { DeliverBotMessage, PrepareBotMessage } from '#domain/messages';
import type { PrepareJobDeps } from '#functions/prepare/prepare-job.ts';
import { startDynamo } from './dynamo.ts';
import { FolderObjectStore, liveAccountsOnly, RecordingQueue } from './fakes.ts';
import { builtInLookAsPrepared } from './looks.ts';

export const tenantId = 'acct_prepare1';
export const caller = { tenantId, keyId: 'key_1' };
export const voices = { polly: false };
export const PNG_BYTES = builtInLookAsPrepared('ava').files.get('head-m0-eo.png')!;

export let dynamo: Awaited<ReturnType<typeof startDynamo>>;
export let accountBots: DynamoAccountBotStore;
export let objects: FolderObjectStore;
export let prepareQueue: RecordingQueue<PrepareBotMessage>;
/** Video bots' preparations: a queue of their own (domain/account-bots.ts preparationQueueOf). */
export let footageQueue: RecordingQueue<PrepareBotMessage>;
export let notifyQueue: RecordingQueue<DeliverBotMessage>;
let versions = 0;

export const apiDeps = (): AccountBotDeps => ({
  accountBots,
  accounts: liveAccountsOnly,
  objects,
  prepareQueue,
  footageQueue,
  now: () => new Date(),
  newVersion: () => `v_${++versions}`,
});

export function jobDeps(overrides: Partial<PrepareJobDeps> = {}): PrepareJobDeps {
  return {
    accountBots,
    objects,
    readObject: async (key) => (objects.has(key) ? objects.read(key) : undefined),
    notifyQueue,
    buildPhotoLook: async () => builtInLookAsPrepared('leo'),
    buildDrawnLook: async () => builtInLookAsPrepared('ava'),
    buildFootageLook: async () => builtInLookAsPrepared('ava'),
    fetchImage: async () => PNG_BYTES,
    fetchRecording: async () => {},
    now: () => new Date(),
    ...overrides,
  };
}

/** Object keys in the folder store. */
export async function keys(prefix = ''): Promise<string[]> {
  return (await readdir(objects.dir))
    .map(decodeURIComponent)
    .filter((k) => k.startsWith(prefix))
    .sort();
}

export async function putPhoto(uid: string, webhook = 'https://hooks.test/bots') {
  const command = parsePutBot(
    uid,
    { name: 'Me', webhook, voice: 'espeak:en-gb+m3' },
    { image: { bytes: PNG_BYTES, contentType: 'image/png' } },
    voices,
  );
  const bot = await putAccountBot(command, caller, apiDeps());
  return { bot, message: prepareQueue.take().at(-1)! };
}

export const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

/** Starts dynalite for the calling file, and gives each of its tests an empty bucket folder and empty queues. */
export function usePrepareJob() {
  beforeAll(async () => {
    dynamo = await startDynamo();
    accountBots = new DynamoAccountBotStore(dynamo.client, 'accountBots');
  });
  afterAll(() => dynamo.stop());
  beforeEach(async () => {
    objects = await FolderObjectStore.create();
    prepareQueue = new RecordingQueue();
    footageQueue = new RecordingQueue();
    notifyQueue = new RecordingQueue();
  });
}
