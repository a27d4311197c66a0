/**
 * The bot API and the prepare job on dynalite and a folder standing in for the bucket, with requests on one bot at
 * once: racing PUTs and DELETEs are 409 conflicts that keep nothing, and a deleted bot leaves no look behind.
 */

import { describe, expect, it } from 'vitest';
import type { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { runQueueJob } from '#commons/jobs';
import type { AccountBot } from '#domain/account-bot';
import { parsePutBot } from '#domain/account-bot-request';
import { deleteAccountBot, putAccountBot } from '#domain/account-bots';
import { lookPrefix } from '#domain/bucket-layout';
import { ConflictError } from '#domain/errors';
import { type PrepareJobDeps, prepareJob } from '#functions/prepare/prepare-job.ts';
import {
  accountBots,
  apiDeps,
  caller,
  jobDeps,
  keys,
  objects,
  PNG_BYTES,
  prepareQueue,
  putPhoto,
  tenantId,
  usePrepareJob,
  voices,
} from '../../support/prepare-job.ts';

usePrepareJob();

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
    await runQueueJob(prepareJob, first.message, 1, 3, jobDeps());
    const racing = readTogether(2);
    const command = () => parsePutBot('raced', { name: 'Raced' }, { image: { bytes: PNG_BYTES, contentType: 'image/png' } }, voices);
    const results = await Promise.allSettled([0, 1].map(() => putAccountBot(command(), caller, { ...apiDeps(), accountBots: racing })));
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(ConflictError);
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
    await runQueueJob(prepareJob, queued[0]!, 1, 3, jobDeps());
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
      expect((deleted as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
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
    await runQueueJob(prepareJob, message, 1, 3, jobDeps());
    const readBeforeSettle = Object.assign(Object.create(accountBots) as DynamoAccountBotStore, { get: async () => stale });
    await expect(deleteAccountBot(tenantId, 'settled-meanwhile', { accountBots: readBeforeSettle, objects })).rejects.toBeInstanceOf(ConflictError);
    expect(await accountBots.get(tenantId, 'settled-meanwhile')).toMatchObject({ status: 'ready' });
    // Read again, it deletes the bot and every file.
    await deleteAccountBot(tenantId, 'settled-meanwhile', { accountBots, objects });
    expect(await keys()).toEqual([]);
  });

  it('landing while the replaced look is being retired leaves no retired copy behind', async () => {
    const first = await putPhoto('deleted-mid-move');
    await runQueueJob(prepareJob, first.message, 1, 3, jobDeps());
    const second = await putPhoto('deleted-mid-move');
    // The DELETE lands between the move's check and its first copy: the copy makes a file the DELETE did not see.
    let deleted = false;
    const deleteOnFirstCopy: PrepareJobDeps['objects'] = {
      putBytes: (key, body, options) => objects.putBytes(key, body, options),
      head: (key) => objects.head(key),
      getToFile: (key, path) => objects.getToFile(key, path),
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
    await runQueueJob(prepareJob, second.message, 1, 3, jobDeps({ objects: deleteOnFirstCopy }));
    expect(deleted).toBe(true);
    expect(await accountBots.get(tenantId, 'deleted-mid-move')).toBeUndefined();
    expect(await keys()).toEqual([]);
  });
});
