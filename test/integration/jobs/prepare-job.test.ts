/**
 * The prepare job on dynalite and a folder standing in for the bucket: a bot becomes ready with its look's files
 * stored, a builder's LookError fails it with its code leaving nothing, a transient error is retried, a replaced or
 * deleted bot leaves no look behind; and the render engine draws a prepared look fetched from the bucket.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { logger } from '#commons/logger';
import { presentAccountBot } from '#commons/presenters/bot';
import { type AccountBot, toBot } from '#domain/account-bot';
import { parsePutBot } from '#domain/account-bot-request';
import { type AccountBotDeps, deleteAccountBot, putAccountBot } from '#domain/account-bots';
import { lookPrefix } from '#domain/bucket-layout';
import { Conflict } from '#domain/errors';
import type { DeliverBotMessage, PrepareBotMessage } from '#domain/messages';
import { clipContentHash } from '#domain/render-cache';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { LookError, type PreparedLook } from '#functions/prepare/look.ts';
import { handlePrepareMessage, type PrepareJobDeps } from '#functions/prepare/prepare-job.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { RENDERER_VERSION } from '#functions/render/engine/types.ts';
import { lookDirectories } from '#functions/render/look-cache.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { sweep } from '#functions/sweeper/sweep.ts';
import { ffmpegPath } from '#media/binaries';
import { startDynamo } from '../../support/dynamo.ts';
import { FolderObjectStore, noBatches, RecordingQueue } from '../../support/fakes.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

const tenantId = 'acct_prepare1';
const caller = { tenantId, keyId: 'key_1' };
const voices = { polly: false };
const PNG_BYTES = builtInLookAsPrepared('ava').files.get('head-m0-eo.png')!;

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let accountBots: DynamoAccountBotStore;
let objects: FolderObjectStore;
let prepareQueue: RecordingQueue<PrepareBotMessage>;
let notifyQueue: RecordingQueue<DeliverBotMessage>;
let versions = 0;

const apiDeps = (): AccountBotDeps => ({ accountBots, objects, prepareQueue, now: () => new Date(), newVersion: () => `v_${++versions}` });

function jobDeps(overrides: Partial<PrepareJobDeps> = {}): PrepareJobDeps {
  return {
    accountBots,
    objects,
    readObject: async (key) => (objects.has(key) ? objects.read(key) : undefined),
    notifyQueue,
    buildPhotoLook: async () => builtInLookAsPrepared('leo'),
    buildDrawnLook: async () => builtInLookAsPrepared('ava'),
    fetchImage: async () => PNG_BYTES,
    now: () => new Date(),
    ...overrides,
  };
}

/** Object keys in the folder store. */
async function keys(prefix = ''): Promise<string[]> {
  return (await readdir(objects.dir))
    .map(decodeURIComponent)
    .filter((k) => k.startsWith(prefix))
    .sort();
}

async function putPhoto(uid: string, webhook = 'https://hooks.test/bots') {
  const command = parsePutBot(
    uid,
    { name: 'Me', webhook, voice: 'espeak:en-gb+m3' },
    { image: { bytes: PNG_BYTES, contentType: 'image/png' } },
    voices,
  );
  const bot = await putAccountBot(command, caller, apiDeps());
  return { bot, message: prepareQueue.take().at(-1)! };
}

beforeAll(async () => {
  dynamo = await startDynamo();
  accountBots = new DynamoAccountBotStore(dynamo.client, 'accountBots');
});
afterAll(() => dynamo.stop());
beforeEach(async () => {
  objects = await FolderObjectStore.create();
  prepareQueue = new RecordingQueue();
  notifyQueue = new RecordingQueue();
});

describe('the prepare job', () => {
  it('makes the bot ready: the look under looks/<tenant>/<uid>/<version>/, the upload removed, bot.ready queued', async () => {
    const { bot, message } = await putPhoto('ready-bot');
    expect(await keys('uploads/')).toEqual([`uploads/${tenantId}/ready-bot/${bot.version}/image`]);
    await handlePrepareMessage(message, 1, 3, jobDeps());
    const stored = await accountBots.get(tenantId, 'ready-bot');
    expect(stored).toMatchObject({ status: 'ready', version: bot.version, look: { version: bot.version, preview: 'preview.png' } });
    // Its event's delivery is recorded on it from the settle on (GET /v1/bot/{uid} shows it).
    expect(stored!.delivery).toEqual({ eventId: `evt_bot_${tenantId}_ready-bot_${bot.version}_ready`, state: 'pending', attempts: [] });
    const leo = builtInLookAsPrepared('leo');
    expect(await keys('looks/')).toEqual([...leo.files.keys()].map((f) => `${lookPrefix(tenantId, 'ready-bot', bot.version)}/${f}`).sort());
    expect(await objects.read(`${lookPrefix(tenantId, 'ready-bot', bot.version)}/body.png`)).toEqual(leo.files.get('body.png'));
    expect(await keys('uploads/')).toEqual([]);
    expect(notifyQueue.take()).toEqual([
      {
        kind: 'deliver-bot',
        tenantId,
        uid: 'ready-bot',
        version: bot.version,
        eventId: `evt_bot_${tenantId}_ready-bot_${bot.version}_ready`,
        attempt: 1,
      },
    ]);
    // A redelivered message finds it settled and only queues its event again (the notifier sends it once).
    await handlePrepareMessage(message, 2, 3, jobDeps());
    expect(notifyQueue.take()).toHaveLength(1);
  });

  it("fails the bot with the builder's code (no retry), leaving no look and no upload", async () => {
    const { message } = await putPhoto('no-face');
    const build = async (): Promise<PreparedLook> => {
      throw new LookError('no_face_found', 'no face was found in the photo');
    };
    await handlePrepareMessage(message, 1, 3, jobDeps({ buildPhotoLook: build }));
    expect(await accountBots.get(tenantId, 'no-face')).toMatchObject({
      status: 'failed',
      error: { code: 'no_face_found', message: 'no face was found in the photo' },
    });
    expect(await keys()).toEqual([]);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([expect.stringMatching(/_failed$/)]);
  });

  it("logs a builder's detail (a library's own text) and never stores or shows it", async () => {
    const { message } = await putPhoto('damaged');
    const detail = 'VipsJpeg: Premature end of JPEG file';
    const build = async (): Promise<PreparedLook> => {
      throw new LookError('image_invalid', 'image cannot be decoded: it is damaged or not a complete image', detail);
    };
    const warn = vi.spyOn(logger, 'warn');
    try {
      await handlePrepareMessage(message, 1, 3, jobDeps({ buildPhotoLook: build }));
      expect(warn).toHaveBeenCalledWith('bot image refused', expect.objectContaining({ bot_uid: 'damaged', code: 'image_invalid', detail }));
    } finally {
      warn.mockRestore();
    }
    const stored = (await accountBots.get(tenantId, 'damaged'))!;
    expect(stored.error).toEqual({ code: 'image_invalid', message: 'image cannot be decoded: it is damaged or not a complete image' });
    const shown = JSON.stringify(await presentAccountBot(stored, objects, voices));
    expect(shown).toContain('image cannot be decoded');
    expect(shown).not.toContain('Vips');
  });

  it('retries a transient error (rethrown, still preparing, nothing stored) and fails as preparation_failed on the last receive', async () => {
    const { message } = await putPhoto('flaky');
    const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    let writes = 0;
    // The third file's write fails: the two before it must not stay.
    const failingObjects = {
      ...objects,
      delete: (k: string) => objects.delete(k),
      head: (k: string) => objects.head(k),
      copy: objects.copy.bind(objects),
      putBytes: async (k: string, b: Uint8Array | string, o: { contentType: string }) => {
        if (++writes === 3) throw reset();
        return objects.putBytes(k, b, o);
      },
    };
    await expect(handlePrepareMessage(message, 1, 3, jobDeps({ objects: failingObjects }))).rejects.toThrow('ECONNRESET');
    expect(await accountBots.get(tenantId, 'flaky')).toMatchObject({ status: 'preparing' });
    expect(await keys('looks/')).toEqual([]);
    expect(notifyQueue.take()).toEqual([]);

    await expect(
      handlePrepareMessage(
        message,
        3,
        3,
        jobDeps({
          buildPhotoLook: async () => {
            throw reset();
          },
        }),
      ),
    ).rejects.toThrow('ECONNRESET');
    expect(await accountBots.get(tenantId, 'flaky')).toMatchObject({ status: 'failed', error: { code: 'preparation_failed' } });
    expect(await keys()).toEqual([]);
  });

  it('fails an image_url that is refused or too large with image_unavailable / image_too_large', async () => {
    const { JobFailure } = await import('#domain/errors');
    const command = parsePutBot('by-url', { name: 'U', image_url: 'https://images.test/huge.jpg' }, {}, voices);
    await putAccountBot(command, caller, apiDeps());
    await handlePrepareMessage(
      prepareQueue.take()[0]!,
      1,
      3,
      jobDeps({
        fetchImage: async () => {
          throw new JobFailure('image_too_large', 'the image is larger than 10 MB');
        },
      }),
    );
    expect(await accountBots.get(tenantId, 'by-url')).toMatchObject({ status: 'failed', error: { code: 'image_too_large' } });
    expect(notifyQueue.take()).toEqual([]); // no webhook was given
  });

  it('replacing re-prepares under a new version and retires the old look to retired-looks/; a version replaced mid-way leaves nothing', async () => {
    const first = await putPhoto('replaced');
    await handlePrepareMessage(first.message, 1, 3, jobDeps());
    const second = await putPhoto('replaced');
    expect(second.bot.version).not.toBe(first.bot.version);
    // While the new version prepares, the bot is not usable and its old look still exists.
    expect(await accountBots.get(tenantId, 'replaced')).toMatchObject({ status: 'preparing', version: second.bot.version });
    // The stale first message runs again: dropped, nothing written.
    await handlePrepareMessage(first.message, 2, 3, jobDeps());
    await handlePrepareMessage(second.message, 1, 3, jobDeps({ buildPhotoLook: async () => builtInLookAsPrepared('maya') }));
    expect(await accountBots.get(tenantId, 'replaced')).toMatchObject({ status: 'ready', look: { version: second.bot.version } });
    expect((await keys('looks/')).every((k) => k.startsWith(lookPrefix(tenantId, 'replaced', second.bot.version)))).toBe(true);
    // The first look, byte for byte, under retired-looks/ (clips accepted before the replacement render with it),
    // and listed on the record so that deleting the bot removes it.
    const leo = builtInLookAsPrepared('leo');
    expect(await keys('retired-looks/')).toEqual(
      [...leo.files.keys()].map((f) => `retired-${lookPrefix(tenantId, 'replaced', first.bot.version)}/${f}`).sort(),
    );
    expect(await objects.read(`retired-${lookPrefix(tenantId, 'replaced', first.bot.version)}/body.png`)).toEqual(leo.files.get('body.png'));
    expect((await accountBots.get(tenantId, 'replaced'))!.retiredLooks).toEqual([
      expect.objectContaining({ version: first.bot.version, preview: 'preview.png' }),
    ]);

    // Replaced while its look was being built: its files go again.
    const third = await putPhoto('replaced');
    await handlePrepareMessage(
      third.message,
      1,
      3,
      jobDeps({
        buildPhotoLook: async () => {
          await putPhoto('replaced');
          return builtInLookAsPrepared('otto');
        },
      }),
    );
    expect((await keys('looks/')).some((k) => k.includes(third.bot.version))).toBe(false);
  });
});

const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
/** The object store, except that deleting a key under `prefix` fails as a dropped connection would. */
const failingDeletesUnder = (prefix: string): PrepareJobDeps['objects'] => ({
  putBytes: (key, body, options) => objects.putBytes(key, body, options),
  head: (key) => objects.head(key),
  copy: (from, to, options) => objects.copy(from, to, options),
  delete: async (key) => {
    if (key.startsWith(prefix)) throw reset();
    return objects.delete(key);
  },
});

describe('a preparation that dies halfway', () => {
  it('failing to retire the replaced look leaves the bot preparing, and the retry retires it', async () => {
    const first = await putPhoto('tidy');
    await handlePrepareMessage(first.message, 1, 3, jobDeps());
    const second = await putPhoto('tidy');
    notifyQueue.take();
    await expect(
      handlePrepareMessage(second.message, 1, 3, jobDeps({ objects: failingDeletesUnder(`${lookPrefix(tenantId, 'tidy', first.bot.version)}/`) })),
    ).rejects.toThrow('ECONNRESET');
    await handlePrepareMessage(second.message, 2, 3, jobDeps());
    expect(await accountBots.get(tenantId, 'tidy')).toMatchObject({ status: 'ready', look: { version: second.bot.version } });
    const looks = await keys('looks/');
    expect(looks.length).toBeGreaterThan(0);
    expect(looks.filter((k) => !k.startsWith(`${lookPrefix(tenantId, 'tidy', second.bot.version)}/`))).toEqual([]);
    expect((await keys('retired-looks/')).length).toBe(builtInLookAsPrepared('leo').files.size);
    expect(await keys('uploads/')).toEqual([]);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_bot_${tenantId}_tidy_${second.bot.version}_ready`]);
  });

  it('failing to remove the uploads after the bot is ready: the retry finds it settled and removes them', async () => {
    const first = await putPhoto('tidy-uploads');
    await expect(handlePrepareMessage(first.message, 1, 3, jobDeps({ objects: failingDeletesUnder('uploads/') }))).rejects.toThrow('ECONNRESET');
    expect(await accountBots.get(tenantId, 'tidy-uploads')).toMatchObject({ status: 'ready', version: first.bot.version });
    expect(await keys('uploads/')).toEqual([`uploads/${tenantId}/tidy-uploads/${first.bot.version}/image`]);
    await handlePrepareMessage(first.message, 2, 3, jobDeps());
    expect(await keys('uploads/')).toEqual([]);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_bot_${tenantId}_tidy-uploads_${first.bot.version}_ready`]);
  });

  it('failing a bot retires its previous look before the record stops naming it: a retry still finds it', async () => {
    const first = await putPhoto('tidy-failed');
    await handlePrepareMessage(first.message, 1, 3, jobDeps());
    const second = await putPhoto('tidy-failed');
    notifyQueue.take();
    const noFace = async (): Promise<PreparedLook> => {
      throw new LookError('no_face_found', 'no face was found in the photo');
    };
    const oldLook = `${lookPrefix(tenantId, 'tidy-failed', first.bot.version)}/`;
    await expect(
      handlePrepareMessage(second.message, 1, 3, jobDeps({ buildPhotoLook: noFace, objects: failingDeletesUnder(oldLook) })),
    ).rejects.toThrow('ECONNRESET');
    expect(await accountBots.get(tenantId, 'tidy-failed')).toMatchObject({ status: 'preparing', look: { version: first.bot.version } });
    await handlePrepareMessage(second.message, 2, 3, jobDeps({ buildPhotoLook: noFace }));
    expect(await accountBots.get(tenantId, 'tidy-failed')).toMatchObject({ status: 'failed', error: { code: 'no_face_found' } });
    expect((await keys()).every((k) => k.startsWith(`retired-${oldLook}`))).toBe(true);
    expect((await keys()).length).toBe(builtInLookAsPrepared('leo').files.size);
    // Deleting the failed bot removes the look it retired.
    await deleteAccountBot(tenantId, 'tidy-failed', { accountBots, objects });
    expect(await keys()).toEqual([]);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_bot_${tenantId}_tidy-failed_${second.bot.version}_failed`]);
  });
});

describe('the sweeper and a dead-lettered preparation', () => {
  const sweepDeps = (body: string) => ({
    ...noBatches,
    videos: new DynamoVideoRepository(dynamo.client, 'videos'),
    notifyQueue,
    accountBots,
    objects,
    deadLetters: [{ peek: async () => [{ body, receiveCount: 4 }] }],
    now: () => new Date(),
  });

  it('fails the bot as preparation_failed, removes its uploads, leaves its previous look, queues bot.failed once', async () => {
    const first = await putPhoto('crashes');
    await handlePrepareMessage(first.message, 1, 3, jobDeps());
    const { bot, message } = await putPhoto('crashes');
    notifyQueue.take();
    // Its job crashed (a time-out, the OOM killer) on every receive: nothing ran its failure policy.
    const deps = sweepDeps(JSON.stringify(message));
    expect((await sweep(deps)).deadLettered).toBe(1);
    expect(await accountBots.get(tenantId, 'crashes')).toMatchObject({
      status: 'failed',
      version: bot.version,
      error: { code: 'preparation_failed' },
    });
    // The sweeper may only delete uploads: the previous look stays under looks/, listed on the bot for DELETE.
    expect((await keys()).every((k) => k.startsWith(`${lookPrefix(tenantId, 'crashes', first.bot.version)}/`))).toBe(true);
    expect((await keys()).length).toBe(builtInLookAsPrepared('leo').files.size);
    expect((await accountBots.get(tenantId, 'crashes'))!.retiredLooks?.map((look) => look.version)).toEqual([first.bot.version]);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_bot_${tenantId}_crashes_${bot.version}_failed`]);
    // The message stays in the DLQ and is seen again an hour later: nothing changes.
    expect((await sweep(deps)).deadLettered).toBe(0);
    expect(notifyQueue.take()).toEqual([]);
    // Sent again since: the old version's dead letter leaves the new one alone.
    const third = await putPhoto('crashes');
    expect((await sweep(deps)).deadLettered).toBe(0);
    expect(await accountBots.get(tenantId, 'crashes')).toMatchObject({ status: 'preparing', version: third.bot.version });
    expect(await keys('uploads/')).toEqual([`uploads/${tenantId}/crashes/${third.bot.version}/image`]);
    // Deleted: the look the sweeper left goes with it.
    await deleteAccountBot(tenantId, 'crashes', { accountBots, objects });
    expect(await keys()).toEqual([]);
  });

  it("re-queues a settled bot's event whose first attempt was never recorded, once it is due, and not again while it waits", async () => {
    const { bot, message } = await putPhoto('event-lost');
    await handlePrepareMessage(message, 1, 3, jobDeps());
    const settled = (await accountBots.get(tenantId, 'event-lost'))!;
    const settledAt = Date.parse(settled.updatedAt);
    // GET and the list show the record without the sweeper's index attributes.
    expect(settled).not.toHaveProperty('eventPending');
    expect((await accountBots.list(tenantId)).find((b) => b.uid === 'event-lost')).not.toHaveProperty('notifyBy');
    // The event's message was lost (a crash after the settle): nothing ever attempts it.
    expect(notifyQueue.take()).toHaveLength(1);
    const at = (seconds: number) => ({ ...sweepDeps('{}'), deadLetters: [], now: () => new Date(settledAt + seconds * 1000) });
    // What the sweep queued for this bot (other tests' bots share the table).
    const queuedForIt = () => notifyQueue.take().filter((m) => m.kind === 'deliver-bot' && m.uid === 'event-lost');
    await sweep(at(60)); // not due yet: its first attempt may be on its way
    expect(queuedForIt()).toEqual([]);
    const eventId = `evt_bot_${tenantId}_event-lost_${bot.version}_ready`;
    expect((await sweep(at(301))).requeued).toBeGreaterThanOrEqual(1);
    expect(queuedForIt()).toEqual([{ kind: 'deliver-bot', tenantId, uid: 'event-lost', version: bot.version, eventId, attempt: 1 }]);
    // Postponed: the next sweep leaves it to that message; once an attempt is recorded it is off the list for good.
    await sweep(at(302));
    expect(queuedForIt()).toEqual([]);
    await accountBots.recordDeliveryAttempt(
      tenantId,
      'event-lost',
      bot.version,
      { attempt: 1, at: new Date().toISOString(), statusCode: 204, durationMs: 3 },
      'delivered',
      'msg-1',
    );
    await sweep(at(3600));
    expect(queuedForIt()).toEqual([]);
  });

  it('keeps an unsent event in the index when a PUT whose job could not be queued puts the bot back', async () => {
    const { bot, message } = await putPhoto('event-restored');
    await handlePrepareMessage(message, 1, 3, jobDeps());
    notifyQueue.take(); // lost
    const settledAt = Date.parse((await accountBots.get(tenantId, 'event-restored'))!.updatedAt);
    const refusing = {
      ...apiDeps(),
      prepareQueue: {
        send: async () => {
          throw new Error('SQS is down');
        },
        sendBatch: async () => undefined,
      },
    };
    const command = parsePutBot('event-restored', { name: 'Again' }, { image: { bytes: PNG_BYTES, contentType: 'image/png' } }, voices);
    await expect(putAccountBot(command, caller, refusing)).rejects.toThrow('SQS is down');
    expect(await accountBots.get(tenantId, 'event-restored')).toMatchObject({ version: bot.version, status: 'ready' });
    await sweep({ ...sweepDeps('{}'), deadLetters: [], now: () => new Date(settledAt + 301_000) });
    expect(notifyQueue.take().filter((m) => m.kind === 'deliver-bot' && m.uid === 'event-restored')).toHaveLength(1);
  });

  it('leaves a bot that became ready before its job died', async () => {
    const { bot, message } = await putPhoto('ready-then-crashed');
    await handlePrepareMessage(message, 1, 3, jobDeps());
    notifyQueue.take();
    expect((await sweep(sweepDeps(JSON.stringify(message)))).deadLettered).toBe(0);
    expect(await accountBots.get(tenantId, 'ready-then-crashed')).toMatchObject({ status: 'ready', look: { version: bot.version } });
    expect((await keys('looks/')).length).toBeGreaterThan(0);
    expect(notifyQueue.take()).toEqual([]);
  });
});

describe('requests on one bot at once', () => {
  /** The store, except that `get` holds its answer until `readers` requests have read the record. */
  function readTogether(readers: number) {
    let reads = 0;
    let release!: () => void;
    const allRead = new Promise<void>((resolve) => (release = resolve));
    return Object.assign(Object.create(accountBots) as DynamoAccountBotStore, {
      get: async (tenant: string, uid: string): Promise<AccountBot | undefined> => {
        const bot = await accountBots.get(tenant, uid);
        if (++reads === readers) release();
        await allRead;
        return bot;
      },
    });
  }

  it('of two PUTs that read the same record, one wins and the other is a 409 conflict that keeps nothing', async () => {
    const first = await putPhoto('raced');
    await handlePrepareMessage(first.message, 1, 3, jobDeps());
    const racing = readTogether(2);
    const command = () => parsePutBot('raced', { name: 'Raced' }, { image: { bytes: PNG_BYTES, contentType: 'image/png' } }, voices);
    const results = await Promise.allSettled([0, 1].map(() => putAccountBot(command(), caller, { ...apiDeps(), accountBots: racing })));
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(Conflict);
    expect(lost[0]).toMatchObject({ code: 'conflict', message: expect.stringMatching(/changed by another request/) });
    const winner = won[0]!;
    expect(await accountBots.get(tenantId, 'raced')).toMatchObject({
      status: 'preparing',
      version: winner.version,
      look: { version: first.bot.version },
    });
    // The loser's upload is gone and it queued nothing.
    expect(await keys('uploads/')).toEqual([`uploads/${tenantId}/raced/${winner.version}/image`]);
    const queued = prepareQueue.take();
    expect(queued).toEqual([{ kind: 'prepare-bot', tenantId, uid: 'raced', version: winner.version }]);
    await handlePrepareMessage(queued[0]!, 1, 3, jobDeps());
    const looks = await keys('looks/');
    expect(looks.filter((k) => !k.startsWith(`${lookPrefix(tenantId, 'raced', winner.version)}/`))).toEqual([]);
  });

  it('a PUT over a bot deleted since it read it is a 409 conflict; a first PUT over one created since, too', async () => {
    const { bot } = await putPhoto('raced-delete');
    const racing = readTogether(2);
    const command = parsePutBot('raced-delete', { name: 'Raced' }, { image: { bytes: PNG_BYTES, contentType: 'image/png' } }, voices);
    const [put, deleted] = await Promise.allSettled([
      putAccountBot(command, caller, { ...apiDeps(), accountBots: racing }),
      deleteAccountBot(tenantId, 'raced-delete', { accountBots: racing, objects }),
    ]);
    // Whichever wrote first, the other lost; no record names files that are gone.
    expect([put.status, deleted.status].sort()).toEqual(['fulfilled', 'rejected']);
    const stored = await accountBots.get(tenantId, 'raced-delete');
    if (deleted.status === 'fulfilled') {
      expect(stored).toBeUndefined();
      expect(await keys()).toEqual([]);
    } else {
      expect((deleted as PromiseRejectedResult).reason).toBeInstanceOf(Conflict);
      expect(stored?.version).not.toBe(bot.version);
    }
    prepareQueue.take();

    const fresh = readTogether(2);
    const create = () => parsePutBot('raced-new', { name: 'New' }, { image: { bytes: PNG_BYTES, contentType: 'image/png' } }, voices);
    const created = await Promise.allSettled([0, 1].map(() => putAccountBot(create(), caller, { ...apiDeps(), accountBots: fresh })));
    expect(created.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(prepareQueue.take()).toHaveLength(1);
  });
});

describe('a DELETE during a preparation', () => {
  it('that read the bot before its preparation settled is a 409 conflict, not a delete that misses the new look', async () => {
    const { message } = await putPhoto('settled-meanwhile');
    const stale = (await accountBots.get(tenantId, 'settled-meanwhile'))!;
    await handlePrepareMessage(message, 1, 3, jobDeps());
    const readBeforeSettle = Object.assign(Object.create(accountBots) as DynamoAccountBotStore, { get: async () => stale });
    await expect(deleteAccountBot(tenantId, 'settled-meanwhile', { accountBots: readBeforeSettle, objects })).rejects.toBeInstanceOf(Conflict);
    expect(await accountBots.get(tenantId, 'settled-meanwhile')).toMatchObject({ status: 'ready' });
    // Read again, it deletes the bot and every file.
    await deleteAccountBot(tenantId, 'settled-meanwhile', { accountBots, objects });
    expect(await keys()).toEqual([]);
  });

  it('landing while the replaced look is being retired leaves no retired copy behind', async () => {
    const first = await putPhoto('deleted-mid-move');
    await handlePrepareMessage(first.message, 1, 3, jobDeps());
    const second = await putPhoto('deleted-mid-move');
    // The DELETE lands between the move's check and its first copy: the copy makes a file the DELETE did not see.
    let deleted = false;
    const deleteOnFirstCopy: PrepareJobDeps['objects'] = {
      putBytes: (key, body, options) => objects.putBytes(key, body, options),
      head: (key) => objects.head(key),
      delete: (key) => objects.delete(key),
      copy: async (from, to, options) => {
        if (!deleted) {
          deleted = true;
          await deleteAccountBot(tenantId, 'deleted-mid-move', { accountBots, objects });
          // What the DELETE removed is gone; the copy goes on with the file this run already checked.
          await objects.putBytes(from, 'checked before the delete', { contentType: 'image/png' });
        }
        return objects.copy(from, to, options);
      },
    };
    await handlePrepareMessage(second.message, 1, 3, jobDeps({ objects: deleteOnFirstCopy }));
    expect(deleted).toBe(true);
    expect(await accountBots.get(tenantId, 'deleted-mid-move')).toBeUndefined();
    expect(await keys()).toEqual([]);
  });
});

describe('rendering a prepared bot', () => {
  it('draws the look fetched from the bucket, and a replaced look is a different clip in the render cache', async () => {
    const { bot, message } = await putPhoto('on-screen');
    await handlePrepareMessage(message, 1, 3, jobDeps());
    const own = (await accountBots.get(tenantId, 'on-screen'))!;
    const root = await mkdtemp(join(tmpdir(), 'prepared-render-'));
    const lookDirectory = await lookDirectories(objects, join(root, 'looks'))(own, own.look!);
    expect(lookDirectory).toBe(join(root, 'looks', tenantId, 'on-screen', bot.version));
    const output = await renderClip({
      bot: toBot(own),
      lookDirectory,
      frame: frameSizeOf(DEFAULT_SHAPE),
      voice: voiceToSpeak(toBot(own).voice, undefined, { polly: false }),
      text: 'A bot of my own.',
      position: 'center',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      mode: 'video',
      workDir: await mkdtemp(join(root, 'clip-')),
      speech: new EspeakSpeechEngine(),
    });
    expect(output.durationSeconds).toBeGreaterThan(0.5);
    const framePng = join(root, 'frame.png');
    execFileSync(ffmpegPath(), ['-v', 'error', '-ss', '0.5', '-i', output.path, '-frames:v', '1', '-y', framePng]);
    console.log(`a frame of the prepared bot: ${framePng}`);
    // Leo's panel stands in the centre of the frame: not the default backdrop's colour there.
    const frame = await frameRgb(output.path, 0.5);
    const centre = pixel(frame, 640, 360);
    const corner = pixel(frame, 10, 10);
    expect(Math.hypot(centre[0]! - corner[0]!, centre[1]! - corner[1]!, centre[2]! - corner[2]!)).toBeGreaterThan(30);

    const clip = {
      index: 0,
      clipName: 'c',
      botUid: 'on-screen',
      text: 't',
      position: 'center' as const,
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      reusable: false,
    };
    const replaced = { ...own, look: { ...own.look!, version: 'v_other' } };
    expect(
      clipContentHash(
        tenantId,
        clip,
        toBot(own),
        voiceToSpeak(toBot(own).voice, undefined, { polly: false }),
        'video',
        RENDERER_VERSION,
        DEFAULT_SHAPE,
      ),
    ).not.toBe(
      clipContentHash(
        tenantId,
        clip,
        toBot(replaced),
        voiceToSpeak(toBot(replaced).voice, undefined, { polly: false }),
        'video',
        RENDERER_VERSION,
        DEFAULT_SHAPE,
      ),
    );
  }, 60_000);
});
