/**
 * The prepare job on dynalite and a folder standing in for the bucket, when it fails part-way: a preparation that
 * dies halfway is finished by its retry, and the sweeper settles a dead-lettered one (its bot failed, its uploads
 * removed, its event queued once).
 */

import { describe, expect, it } from 'vitest';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { runQueueJob } from '#commons/jobs';
import { parsePutBot } from '#domain/account-bot-request';
import { deleteAccountBot, putAccountBot } from '#domain/account-bots';
import { lookPrefix } from '#domain/bucket-layout';
import { LookError, type PreparedLook } from '#functions/prepare/look.ts';
import { type PrepareJobDeps, prepareJob } from '#functions/prepare/prepare-job.ts';
import { sweep } from '#functions/sweeper/sweep.ts';
import { noBatches } from '../../support/fakes.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';
import {
  accountBots,
  apiDeps,
  caller,
  dynamo,
  jobDeps,
  keys,
  notifyQueue,
  objects,
  PNG_BYTES,
  putPhoto,
  reset,
  tenantId,
  usePrepareJob,
  voices,
} from '../../support/prepare-job.ts';

usePrepareJob();

/** The object store, except that deleting a key under `prefix` fails as a dropped connection would. */
const failingDeletesUnder = (prefix: string): PrepareJobDeps['objects'] => ({
  putBytes: (key, body, options) => objects.putBytes(key, body, options),
  head: (key) => objects.head(key),
  getToFile: (key, path) => objects.getToFile(key, path),
  copy: (from, to, options) => objects.copy(from, to, options),
  delete: async (key) => {
    if (key.startsWith(prefix)) throw reset();
    return objects.delete(key);
  },
});

describe('a preparation that dies halfway', () => {
  it('failing to retire the replaced look leaves the bot preparing, and the retry retires it', async () => {
    const first = await putPhoto('tidy');
    await runQueueJob(prepareJob, first.message, 1, 3, jobDeps());
    const second = await putPhoto('tidy');
    notifyQueue.take();
    await expect(
      runQueueJob(prepareJob, second.message, 1, 3, jobDeps({ objects: failingDeletesUnder(`${lookPrefix(tenantId, 'tidy', first.bot.version)}/`) })),
    ).rejects.toThrow('ECONNRESET');
    await runQueueJob(prepareJob, second.message, 2, 3, jobDeps());
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
    await expect(runQueueJob(prepareJob, first.message, 1, 3, jobDeps({ objects: failingDeletesUnder('uploads/') }))).rejects.toThrow('ECONNRESET');
    expect(await accountBots.get(tenantId, 'tidy-uploads')).toMatchObject({ status: 'ready', version: first.bot.version });
    expect(await keys('uploads/')).toEqual([`uploads/${tenantId}/tidy-uploads/${first.bot.version}/image`]);
    await runQueueJob(prepareJob, first.message, 2, 3, jobDeps());
    expect(await keys('uploads/')).toEqual([]);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_bot_${tenantId}_tidy-uploads_${first.bot.version}_ready`]);
  });

  it('failing a bot retires its previous look before the record stops naming it: a retry still finds it', async () => {
    const first = await putPhoto('tidy-failed');
    await runQueueJob(prepareJob, first.message, 1, 3, jobDeps());
    const second = await putPhoto('tidy-failed');
    notifyQueue.take();
    const noFace = async (): Promise<PreparedLook> => {
      throw new LookError('no_face_found', 'no face was found in the photo');
    };
    const oldLook = `${lookPrefix(tenantId, 'tidy-failed', first.bot.version)}/`;
    await expect(
      runQueueJob(prepareJob, second.message, 1, 3, jobDeps({ buildPhotoLook: noFace, objects: failingDeletesUnder(oldLook) })),
    ).rejects.toThrow('ECONNRESET');
    expect(await accountBots.get(tenantId, 'tidy-failed')).toMatchObject({ status: 'preparing', look: { version: first.bot.version } });
    await runQueueJob(prepareJob, second.message, 2, 3, jobDeps({ buildPhotoLook: noFace }));
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
    await runQueueJob(prepareJob, first.message, 1, 3, jobDeps());
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
    await runQueueJob(prepareJob, message, 1, 3, jobDeps());
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
    await runQueueJob(prepareJob, message, 1, 3, jobDeps());
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
    await runQueueJob(prepareJob, message, 1, 3, jobDeps());
    notifyQueue.take();
    expect((await sweep(sweepDeps(JSON.stringify(message)))).deadLettered).toBe(0);
    expect(await accountBots.get(tenantId, 'ready-then-crashed')).toMatchObject({ status: 'ready', look: { version: bot.version } });
    expect((await keys('looks/')).length).toBeGreaterThan(0);
    expect(notifyQueue.take()).toEqual([]);
  });
});
