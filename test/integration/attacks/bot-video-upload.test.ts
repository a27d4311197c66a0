/**
 * A video bot from an upload (PUT /v1/bot/{uid} with video_upload), as an attacker would name one: another
 * account's id, an expired one, one already used, an audio upload named as video, two PUTs racing for one id. On
 * dynalite (the uploads and account bots tables) with a folder for the bucket. Every refusal is a 400 at
 * `video_upload` that leaves no record; a PUT that fails after the claim gives the upload back; the prepare job
 * reads the uploaded file and removes it once the bot has settled.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoUploadStore } from '#commons/aws/dynamo-uploads';
import { runQueueJob } from '#commons/jobs';
import { parsePutBot } from '#domain/account-bot-request';
import { type AccountBotDeps, putAccountBot } from '#domain/account-bots';
import { uploadFileKey } from '#domain/bucket-layout';
import { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import { parseUploadRequest, startUpload, withdrawUpload } from '#domain/uploads';
import { prepareJob } from '#functions/prepare/prepare-job.ts';
import { liveAccountsOnly } from '../../support/fakes.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';
import {
  accountBots,
  apiDeps,
  dynamo,
  footageQueue,
  jobDeps,
  keys,
  objects,
  prepareQueue,
  usePrepareJob,
  voices,
} from '../../support/prepare-job.ts';

usePrepareJob();

let ids = 0;
// Each test is an account of its own: the tables live as long as the file, and an account prepares few bots at once.
let tenantId = '';
let accounts = 0;
beforeEach(() => {
  tenantId = `acct_video${++accounts}`;
});
const uploadsTable = () => new DynamoUploadStore(dynamo.client, 'uploads');

/** Asks for an upload as `owner` and stores its file, as the caller's PUT to the presigned link would. */
async function uploaded(owner: string, contentType = 'video/mp4', bytes = Buffer.from('recording bytes'), now = new Date()) {
  const started = await startUpload(owner, parseUploadRequest({ content_type: contentType, size: bytes.length }), {
    uploads: uploadsTable(),
    accounts: liveAccountsOnly,
    objects,
    now: () => now,
    newUploadId: () => `upl_${String(++ids).padStart(4, '0')}video_upload`.slice(0, 20),
  });
  await objects.putBytes(uploadFileKey(owner, started.upload.uploadId), bytes, { contentType });
  return started.upload.uploadId;
}

const put = (uid: string, uploadId: string, deps: AccountBotDeps = { ...apiDeps(), uploads: uploadsTable() }) =>
  putAccountBot(parsePutBot(uid, { name: 'Me', video_upload: uploadId, consent: true }, {}, voices), { tenantId, keyId: 'key_1' }, deps);

/** The field problems of a refused PUT. */
async function refusal(attempt: Promise<unknown>) {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidRequestError);
  return (error as InvalidRequestError).problems;
}

describe('a video bot from video_upload', () => {
  it("takes the caller's own video upload once: the bot names its file, and the prepare job uses it and then removes it", async () => {
    const bytes = Buffer.from('the recording, as uploaded');
    const id = await uploaded(tenantId, 'video/webm', bytes);
    const bot = await put('me-uploaded', id);
    expect(bot).toMatchObject({
      status: 'preparing',
      source: { kind: 'video', uploadKey: uploadFileKey(tenantId, id) },
      consent: { keyId: 'key_1' },
    });
    expect((await uploadsTable().get(tenantId, id))?.usedBy).toBe(`bot:me-uploaded:${bot.version}`);
    let read: Buffer | undefined;
    const look = builtInLookAsPrepared('ava');
    // A video bot is prepared on its own queue (and function), never behind or in front of photos.
    expect(prepareQueue.take()).toEqual([]);
    await runQueueJob(prepareJob, footageQueue.take().at(-1)!, 1, 3, {
      ...jobDeps(),
      buildFootageLook: async (writeRecording) => {
        const path = join(await mkdtemp(join(tmpdir(), 'bot-video-upload-')), 'recording');
        await writeRecording(path);
        read = await readFile(path);
        return look;
      },
    });
    expect(read).toEqual(bytes);
    expect(await accountBots.get(tenantId, 'me-uploaded')).toMatchObject({ status: 'ready' });
    expect(await keys('upload-files/')).toEqual([]);
  });

  it("refuses another account's id exactly as one that never existed, and keeps nothing", async () => {
    const theirs = await uploaded('acct_other');
    const stranger = await refusal(put('me-theirs', theirs));
    expect(stranger).toEqual([{ path: 'video_upload', message: 'is not an upload of this account (POST /v1/uploads)' }]);
    expect(await refusal(put('me-theirs', 'upl_0000000000009999'))).toEqual(stranger);
    expect(await refusal(put('me-theirs', '../acct_other/x'))).toEqual(stranger);
    expect(await accountBots.get(tenantId, 'me-theirs')).toBeUndefined();
    expect((await uploadsTable().get('acct_other', theirs))?.usedBy).toBeUndefined();
    expect(footageQueue.take()).toEqual([]);
    expect(prepareQueue.take()).toEqual([]);
  });

  it('refuses an expired upload, one already used, and an audio upload named as video', async () => {
    const old = await uploaded(tenantId, 'video/mp4', Buffer.from('old'), new Date(Date.now() - limits.uploadLifetimeSeconds * 1000 - 1000));
    expect(await refusal(put('me-late', old))).toEqual([
      { path: 'video_upload', message: 'has expired: an upload may be used for a day after it was asked for' },
    ]);
    const once = await uploaded(tenantId);
    await put('me-first', once);
    expect(await refusal(put('me-second', once))).toEqual([
      { path: 'video_upload', message: 'was already used by another request; upload the file again' },
    ]);
    const audio = await uploaded(tenantId, 'audio/webm');
    expect(await refusal(put('me-audio', audio))).toEqual([
      { path: 'video_upload', message: 'is an audio upload (audio/webm); this field takes video' },
    ]);
    // A video upload larger than a recording may be is refused when asked for, and a claim refuses one recorded
    // larger before that rule: test/unit/attacks/video-upload-size.test.ts.
    expect(await accountBots.get(tenantId, 'me-second')).toBeUndefined();
    expect(await accountBots.get(tenantId, 'me-audio')).toBeUndefined();
  });

  it('of two PUTs racing for one upload, exactly one bot is made', async () => {
    const id = await uploaded(tenantId);
    const outcomes = await Promise.allSettled([put('me-race-a', id), put('me-race-b', id)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const made = await Promise.all(['me-race-a', 'me-race-b'].map((uid) => accountBots.get(tenantId, uid)));
    expect(made.filter(Boolean)).toHaveLength(1);
  });

  it('gives the upload back when the bot cannot be queued, so the retry can name it', async () => {
    const id = await uploaded(tenantId);
    const deps = { ...apiDeps(), uploads: uploadsTable() };
    const down = { ...deps, footageQueue: { ...deps.footageQueue, send: async () => Promise.reject(new Error('SQS is down')) } };
    await expect(put('me-retry', id, down)).rejects.toThrow('SQS is down');
    expect((await uploadsTable().get(tenantId, id))?.usedBy).toBeUndefined();
    expect(await accountBots.get(tenantId, 'me-retry')).toBeUndefined();
    expect(await put('me-retry', id)).toMatchObject({ status: 'preparing' });
  });

  it('withdraws an upload against the tables and the bucket: its file gone, counted as pending until its link ends, then refused by name', async () => {
    const id = await uploaded(tenantId);
    const now = Math.floor(Date.now() / 1000);
    expect(await uploadsTable().countPending(tenantId, now)).toBe(1);
    await withdrawUpload(tenantId, id, { uploads: uploadsTable(), objects });
    expect(await objects.head(uploadFileKey(tenantId, id))).toBeUndefined();
    // Its link may still store a file for the hour: it counts until then, and not after.
    expect(await uploadsTable().countPending(tenantId, now)).toBe(1);
    expect(await uploadsTable().countPending(tenantId, now + 3600 + 60)).toBe(0);
    expect(await refusal(put('withdrawn-upload', id))).toEqual([
      { path: 'video_upload', message: 'was withdrawn (DELETE /v1/uploads/{upload_id}); upload the file again' },
    ]);
  });

  it('is refused where no uploads are wired, naming the field', async () => {
    const id = await uploaded(tenantId);
    expect(await refusal(put('me-nowhere', id, apiDeps()))).toEqual([
      { path: 'video_upload', message: 'is not accepted here: give video_url or send the video file' },
    ]);
  });
});
