/**
 * The batch worker against the real DynamoDB adapters (dynalite): rows released as the account has room, the
 * first row alone while it renders the shared clips, a look that crashed after making videos done again without
 * making them twice, duplicate looks dropped, a cancel kept across a racing look, a lost chain revived by the
 * sweeper, batch.completed queued once, and rows over the video record's size refused when the batch is sent.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
import { DynamoAccountStore, DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoUploadStore } from '#commons/aws/dynamo-uploads';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { newBatchId, rowVideoId } from '#domain/batch-ids';
import { checkRows, rowCommand } from '#domain/batch-request';
import { readBatchRows } from '#domain/batch-rows';
import { type AdvanceBatchDeps, advanceBatch, batchRoom, cancelBatch, startBatch } from '#domain/batches';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { BatchTickMessage, DeliverBatchMessage, RenderClipMessage } from '#domain/messages';
import { parseTemplate, saveTemplate, type TemplateRecord } from '#domain/templates';
import { createVideo } from '#domain/videos';
import { sweep } from '#functions/sweeper/sweep.ts';
import { startDynamo } from '../../support/dynamo.ts';
import { FolderObjectStore, RecordingQueue } from '../../support/fakes.ts';

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let batches: DynamoBatchStore;
let videos: DynamoVideoRepository;
let accounts: DynamoAccountStore;
let deps: AdvanceBatchDeps;
let objects: FolderObjectStore;
let uploads: DynamoUploadStore;
let template: TemplateRecord;
const renderQueue = new RecordingQueue<RenderClipMessage>();
const batchQueue = new RecordingQueue<BatchTickMessage>();
const notifyQueue = new RecordingQueue<DeliverBatchMessage>();
let clock = new Date('2026-11-24T10:00:00Z');
let counter = 0;
const caller = { tenantId: 'acct_batch', keyId: 'key_batch', baseUrl: 'https://api.test' };

beforeAll(async () => {
  dynamo = await startDynamo();
  batches = new DynamoBatchStore(dynamo.client, 'batches');
  videos = new DynamoVideoRepository(dynamo.client, 'videos', () => clock);
  accounts = new DynamoAccountStore(dynamo.client, 'accounts');
  await accounts.put({ tenantId: caller.tenantId, name: 'batch tests', createdAt: clock.toISOString() });
  const bots = new DynamoBotCatalog(dynamo.client, 'bots');
  for (const bot of BUILT_IN_BOTS) await bots.put(bot);
  objects = await FolderObjectStore.create(() => clock);
  uploads = new DynamoUploadStore(dynamo.client, 'uploads');
  deps = {
    batches,
    videos,
    accounts,
    bots,
    accountBots: new DynamoAccountBotStore(dynamo.client, 'accountBots'),
    clips: new DynamoClipLibrary(dynamo.client, 'clips'),
    objects,
    recordings: { uploads, objects },
    renderQueue,
    batchQueue,
    notifyQueue,
    now: () => clock,
    newVideoId: () => 'unused',
    voices: { polly: false },
  };
  const command = parseTemplate('intro', {
    name: 'Intro',
    create_video: false,
    clips: [
      { bot_uid: 'bot_ava', text: 'Hi {{first_name}}.' },
      { bot_uid: 'bot_otto', text: 'The same outro for all.' },
    ],
  });
  template = await saveTemplate(caller.tenantId, command, {
    templates: { get: async () => undefined, put: async () => {} } as never,
    now: () => clock,
  });
});
afterAll(() => dynamo.stop());
beforeEach(async () => {
  await accounts.setMaxVideosInProgress(caller.tenantId, 20);
  for (const queue of [renderQueue, batchQueue, notifyQueue]) queue.take();
});

async function newBatch(names: string[]) {
  const rows = readBatchRows(names.map((first_name) => ({ first_name })));
  const webhookUrl = await checkRows(template, { webhook: 'https://hooks.test/batch', notifyEach: false, rows }, caller.tenantId, deps);
  const batch = await startBatch(template, { webhookUrl, notifyEach: false, rows }, caller, {
    ...deps,
    batches,
    objects,
    recordings: { uploads, objects },
    newBatchId: () => `bat_test${++counter}`,
  });
  return { batch, look: batchQueue.take()[0]! };
}

/** Sets a video's status as its pipeline would have (with its shared clip rendered when completed). */
async function settle(videoId: string, status: 'completed' | 'failed' | 'rendering') {
  await dynamo.client.send(
    new UpdateCommand({
      TableName: 'videos',
      Key: { videoId },
      UpdateExpression: 'SET #s = :s, clipResults.#one = :rendered, delivery.#ds = :none',
      ExpressionAttributeNames: { '#s': 'status', '#one': '1', '#ds': 'state' },
      ExpressionAttributeValues: { ':s': status, ':rendered': { status: 'rendered' }, ':none': 'none' },
    }),
  );
}

const batchVideos = async (batchId: string) => {
  const found: string[] = [];
  for await (const video of videos.scanAll()) if (video.batch?.batchId === batchId) found.push(video.videoId);
  return found.sort();
};

describe('the batch worker', () => {
  it('gives a batch three quarters of the account, and an account of one video all of it', () => {
    expect([1, 2, 4, 20, 100].map(batchRoom)).toEqual([1, 1, 3, 15, 75]);
  });

  it('releases the first row alone, the others once it has rendered the shared clip, then settles and queues batch.completed once', async () => {
    const { batch, look } = await newBatch(['Ada', 'Ben', 'Cy']);
    expect(batch.sharedClips).toEqual([1]);
    expect(await advanceBatch(look, deps)).toBe('running');
    expect(await batchVideos(batch.batchId)).toEqual([rowVideoId(batch.batchId, 0)]);

    // Still rendering its outro: the others wait.
    let next = batchQueue.take()[0]!;
    expect(next.version).toBe(1);
    expect(await advanceBatch(next, deps)).toBe('running');
    expect(await batchVideos(batch.batchId)).toHaveLength(1);

    await settle(rowVideoId(batch.batchId, 0), 'rendering');
    next = batchQueue.take()[0]!;
    expect(await advanceBatch(next, deps)).toBe('running');
    expect(await batchVideos(batch.batchId)).toHaveLength(3);

    for (const row of [0, 1]) await settle(rowVideoId(batch.batchId, row), 'completed');
    await settle(rowVideoId(batch.batchId, 2), 'failed');
    expect(await advanceBatch(batchQueue.take()[0]!, deps)).toBe('settled');
    expect(await batches.get(caller.tenantId, batch.batchId)).toMatchObject({
      status: 'completed_with_failures',
      counts: { completed: 2, failed: 1, cancelled: 0 },
      inFlight: [],
      delivery: { state: 'pending', eventId: `evt_${batch.batchId}_completed` },
    });
    expect(notifyQueue.take()).toEqual([
      { kind: 'deliver-batch', tenantId: caller.tenantId, batchId: batch.batchId, eventId: `evt_${batch.batchId}_completed`, attempt: 1 },
    ]);
    expect(batchQueue.take()).toEqual([]);
  });

  it('releases no more than its share of the room the account has', async () => {
    await accounts.setMaxVideosInProgress(caller.tenantId, 4);
    const { batch, look } = await newBatch(['A', 'B', 'C', 'D', 'E', 'F']);
    await advanceBatch(look, deps);
    await settle(rowVideoId(batch.batchId, 0), 'rendering');
    await advanceBatch(batchQueue.take()[0]!, deps);
    // batchRoom(4) = 3 in progress at once: the first row and two more.
    expect(await batchVideos(batch.batchId)).toHaveLength(3);
    await settle(rowVideoId(batch.batchId, 0), 'completed');
    await advanceBatch(batchQueue.take()[0]!, deps);
    expect(await batchVideos(batch.batchId)).toHaveLength(4);
  });

  it('does again a look that crashed after making videos, without making any twice', async () => {
    const { batch, look } = await newBatch(['Ada', 'Ben', 'Cy', 'Di']);
    await advanceBatch(look, deps);
    await settle(rowVideoId(batch.batchId, 0), 'rendering');
    const second = batchQueue.take()[0]!;
    // The look makes its videos, then dies before saving: the queue gives the same message again.
    const crashing = { ...deps, batches: { get: batches.get.bind(batches), save: async () => Promise.reject(new Error('killed')) } };
    await expect(advanceBatch(second, crashing)).rejects.toThrow('killed');
    expect(await batchVideos(batch.batchId)).toHaveLength(4);
    renderQueue.take();
    expect(await advanceBatch(second, deps)).toBe('running');
    expect(await batchVideos(batch.batchId)).toHaveLength(4);
    expect(await batches.get(caller.tenantId, batch.batchId)).toMatchObject({ nextRow: 4, inFlight: [0, 1, 2, 3], version: 2 });
    // The videos it found were queued and none started: their render messages go again (consumers are idempotent).
    expect(renderQueue.take().map((m) => m.videoId)).toEqual([1, 1, 2, 2, 3, 3].map((row) => rowVideoId(batch.batchId, row)));
  });

  it('drops a look of an old version, and a look that lost the race to save queues nothing', async () => {
    const { batch, look } = await newBatch(['Ada']);
    expect(await advanceBatch(look, deps)).toBe('running');
    const next = batchQueue.take();
    expect(await advanceBatch(look, deps)).toBe('stale');
    expect(batchQueue.take()).toEqual([]);
    // Two copies of one look: the first saves, the second finds the version moved on.
    await advanceBatch(next[0]!, deps);
    expect(await advanceBatch(next[0]!, deps)).toBe('stale');
    expect(batchQueue.take()).toHaveLength(1);
    expect((await batches.get(caller.tenantId, batch.batchId))?.version).toBe(2);
  });

  it('keeps a cancel asked for while a look runs, cancels what was not released, and settles as cancelled', async () => {
    const { batch, look } = await newBatch(['Ada', 'Ben', 'Cy']);
    // The cancel lands between the look's read and its save: the save must not undo it.
    const racing = {
      ...deps,
      batches: {
        get: batches.get.bind(batches),
        save: async (record: Parameters<DynamoBatchStore['save']>[0], expected: number) => {
          await cancelBatch(batches, caller.tenantId, batch.batchId);
          return batches.save(record, expected);
        },
      },
    };
    await advanceBatch(look, racing);
    expect((await batches.get(caller.tenantId, batch.batchId))?.cancelRequested).toBe(true);
    await settle(rowVideoId(batch.batchId, 0), 'completed');
    expect(await advanceBatch(batchQueue.take()[0]!, deps)).toBe('settled');
    expect(await batches.get(caller.tenantId, batch.batchId)).toMatchObject({
      status: 'cancelled',
      cancelledFrom: 1,
      counts: { completed: 1, cancelled: 2 },
    });
    await expect(cancelBatch(batches, caller.tenantId, batch.batchId)).rejects.toMatchObject({ code: 'batch_settled' });
  });

  it('fails a row whose bot went away after the batch was sent, and goes on with the others', async () => {
    const { batch, look } = await newBatch(['Ada', 'Ben']);
    // Row 1 names a bot that does not exist (as if deleted since): the stored input is rewritten to say so.
    const key = `batches/${caller.tenantId}/${batch.batchId}.json`;
    const input = JSON.parse((await deps.objects.getText(key))!);
    input.template.request.clips[1].bot_uid = 'bot_gone';
    await (deps.objects as FolderObjectStore).putBytes(key, JSON.stringify(input), { contentType: 'application/json' });
    await advanceBatch(look, deps);
    const record = await batches.get(caller.tenantId, batch.batchId);
    expect(record).toMatchObject({ nextRow: 1, inFlight: [], counts: { failed: 1 } });
    expect(record?.rowErrors['0']).toMatch(/clips\[1\]\.bot_uid: unknown bot "bot_gone"/);
  });

  it('revives a batch whose chain of looks was lost, and re-sends a settled batch event never attempted', async () => {
    const { batch } = await newBatch(['Ada']);
    const sweeperDeps = {
      videos,
      batches,
      batchQueue,
      notifyQueue,
      accountBots: { listUnsentEvents: async () => [], postponeUnsentEvent: async () => {} } as never,
      objects: deps.objects as never,
      deadLetters: [],
    };
    // Its first look was lost (a crash between saving and queueing): nothing for two minutes.
    expect((await sweep({ ...sweeperDeps, now: () => new Date(clock.getTime() + 60_000) })).requeued).toBe(0);
    await sweep({ ...sweeperDeps, now: () => new Date(clock.getTime() + 121_000) });
    // (The other tests' unsettled batches are revived too.)
    const revived = batchQueue.take().filter((m) => m.batchId === batch.batchId);
    expect(revived).toEqual([{ kind: 'batch-tick', tenantId: caller.tenantId, batchId: batch.batchId, version: 0 }]);
    // Not again at the next sweep: it was postponed.
    await sweep({ ...sweeperDeps, now: () => new Date(clock.getTime() + 180_000) });
    expect(batchQueue.take().filter((m) => m.batchId === batch.batchId)).toEqual([]);

    clock = new Date(clock.getTime() + 200_000);
    await advanceBatch(revived[0]!, deps);
    await settle(rowVideoId(batch.batchId, 0), 'completed');
    await advanceBatch(batchQueue.take()[0]!, deps);
    notifyQueue.take(); // the event's message was lost before its first attempt
    await sweep({ ...sweeperDeps, now: () => new Date(clock.getTime() + 121_000) });
    expect(notifyQueue.take().filter((m) => m.batchId === batch.batchId)).toEqual([
      { kind: 'deliver-batch', tenantId: caller.tenantId, batchId: batch.batchId, eventId: `evt_${batch.batchId}_completed`, attempt: 1 },
    ]);
    // Its row's video sends no event of its own: once past its deadline, a sweep takes it out of its index
    // (nothing is owed for it) instead of finding it again at every sweep.
    const later = new Date(clock.getTime() + 10 * 86_400_000);
    const isOverdue = async () =>
      (await videos.listOverdue(Math.floor(later.getTime() / 1000), 1000)).some((v) => v.videoId === rowVideoId(batch.batchId, 0));
    expect(await isOverdue()).toBe(true);
    await sweep({ ...sweeperDeps, now: () => later });
    const overdue = await videos.listOverdue(Math.floor(later.getTime() / 1000), 1000);
    expect(overdue.map((v) => v.videoId)).not.toContain(rowVideoId(batch.batchId, 0));
  });
});

describe("a batch's rows that speak their own recordings (audio_upload)", () => {
  let recorded: TemplateRecord;
  let uploadCount = 0;
  // An account of its own: the batches above hold this file's first account's running slots.
  const voices = { ...caller, tenantId: 'acct_batch_voices' };
  beforeAll(async () => {
    await accounts.put({ tenantId: voices.tenantId, name: 'batch voices', createdAt: clock.toISOString() });
    const command = parseTemplate('voices', {
      name: 'Voices',
      create_video: false,
      clips: [{ bot_uid: 'bot_ava', audio_upload: '{{recording}}' }],
    });
    recorded = await saveTemplate(voices.tenantId, command, {
      templates: { get: async () => undefined, put: async () => {} } as never,
      now: () => clock,
    });
  });

  /** An upload of the account (or another's) with its file stored, as POST /v1/uploads and the PUT leave it. */
  async function uploaded(tenantId = voices.tenantId, kind: 'audio' | 'video' = 'audio') {
    const uploadId = `upl_batchRecording${String(++uploadCount).padStart(2, '0')}`;
    await uploads.put({
      tenantId,
      uploadId,
      kind,
      contentType: kind === 'audio' ? 'audio/wav' : 'video/mp4',
      sizeBytes: 4,
      createdAt: clock.toISOString(),
      expiresAt: Math.floor(clock.getTime() / 1000) + 86_400,
    });
    await objects.putBytes(`upload-files/${tenantId}/${uploadId}`, 'RIFF', { contentType: 'audio/wav' });
    return uploadId;
  }

  const start = async (ids: string[]) => {
    const rows = readBatchRows(ids.map((recording) => ({ recording })));
    const webhookUrl = await checkRows(recorded, { webhook: 'https://hooks.test/batch', notifyEach: false, rows }, voices.tenantId, deps);
    return startBatch(recorded, { webhookUrl, notifyEach: false, rows }, voices, {
      ...deps,
      batches,
      objects,
      recordings: { uploads, objects },
      newBatchId: () => `bat_voice${++counter}`,
    });
  };
  const problems = (promise: Promise<unknown>) =>
    promise.then(
      () => [],
      (error: { problems?: unknown }) => error.problems ?? error,
    );

  it("claims each row's upload for the batch, and each row's video speaks its own", async () => {
    const ids = [await uploaded(), await uploaded()];
    const batch = await start(ids);
    for (const id of ids) expect((await uploads.get(voices.tenantId, id))?.usedBy).toBe(batch.batchId);
    expect(await advanceBatch(batchQueue.take()[0]!, deps)).toBe('running');
    for (const [row, id] of ids.entries()) {
      const video = await videos.get(rowVideoId(batch.batchId, row));
      expect(video?.clips[0]?.recording).toEqual({ uploadKey: `upload-files/${voices.tenantId}/${id}` });
    }
  });

  it("refuses another account's upload, one upload in two rows, a used one and a footage upload, naming the row, and takes none", async () => {
    const mine = await uploaded();
    const theirs = await uploaded('acct_other');
    expect(await problems(start([mine, theirs]))).toEqual([
      { path: 'rows[1].clips[0].audio_upload', message: 'is not an upload of this account (POST /v1/uploads)' },
    ]);
    expect((await uploads.get(voices.tenantId, mine))?.usedBy).toBeUndefined();
    expect(await problems(start([mine, mine]))).toEqual([
      { path: 'rows[1].clips[0].audio_upload', message: 'names an upload another clip or row of this batch already uses; upload the file again' },
    ]);
    const footage = await uploaded(voices.tenantId, 'video');
    expect(await problems(start([mine, footage]))).toEqual([
      { path: 'rows[1].clips[0].audio_upload', message: 'is a video upload (video/mp4); this field takes audio' },
    ]);
    expect((await uploads.get(voices.tenantId, mine))?.usedBy).toBeUndefined();
    await start([mine]);
    expect(await problems(start([mine]))).toEqual([
      { path: 'rows[0].clips[0].audio_upload', message: 'was already used by another request; upload the file again' },
    ]);
  });

  it('gives the uploads back when the batch cannot be stored, so a retry can name them', async () => {
    const id = await uploaded();
    const rows = readBatchRows([{ recording: id }]);
    const failing = {
      ...deps,
      batches,
      objects,
      recordings: { uploads, objects },
      batchQueue: { send: async () => Promise.reject(new Error('queue down')), sendBatch: async () => {} },
      newBatchId: () => `bat_voice${++counter}`,
    };
    await expect(startBatch(recorded, { webhookUrl: 'https://hooks.test/b', notifyEach: false, rows }, voices, failing)).rejects.toThrow(
      'queue down',
    );
    expect((await uploads.get(voices.tenantId, id))?.usedBy).toBeUndefined();
  });
});

describe("a batch's rows over the video record's size", () => {
  // A template that repeats a variable in many fields: each row's video would be over 300 KiB as stored
  // (limits.maxVideoRecordBytes), a 400 naming the row rather than a batch whose rows all fail when released.
  const vars = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `{{${prefix}${i}}}`).join('');
  const letters = (chars: number) => 'ệệệệệệ '.repeat(Math.ceil(chars / 7)).slice(0, chars - 1) + 'ệ';

  const overlays = Array.from({ length: 10 }, () => ({ type: 'image', url: `https://example.com/${vars('u', 4)}`, position: 'top-center' }));
  const clips = Array.from({ length: 10 }, (_, i) =>
    i < 3
      ? { bot_uid: 'bot_ava', audio_url: 'https://example.com/take.mp3', text: vars('t', 24), overlays }
      : { bot_uid: 'bot_ava', text: vars('s', 3), overlays },
  );
  const bigTemplate = () =>
    saveTemplate(caller.tenantId, parseTemplate('big', { name: 'Big', create_video: true, clips }), {
      templates: { get: async () => undefined, put: async () => {} } as never,
      now: () => clock,
    });
  const values = (scale: number): Record<string, string> => {
    const row: Record<string, string> = {};
    for (let i = 0; i < 24; i++) row[`t${i}`] = letters(Math.round(500 * scale));
    for (let i = 0; i < 4; i++) row[`u${i}`] = 'a'.repeat(Math.round(500 * scale));
    for (let i = 0; i < 3; i++) row[`s${i}`] = letters(Math.round(466 * scale));
    return row;
  };

  it("refuses a batch whose row's video would be over the record size, naming the row", async () => {
    const template = await bigTemplate();
    const check = (rows: Record<string, string>[]) =>
      checkRows(template, { webhook: 'https://hooks.test/batch', notifyEach: false, rows: readBatchRows(rows) }, caller.tenantId, deps).then(
        () => [],
        (error: InvalidRequestError) => error.problems.map((p) => p.path),
      );
    // The same template with half the text fits; with the full text, its second row is refused.
    expect(await check([values(0.5)])).toEqual([]);
    expect(await check([values(0.5), values(1)])).toEqual(['rows[1].clips']);
  }, 120_000);

  it('passes at send only a row whose video a test key can store at release, with the ids a row gets', async () => {
    // The send check sizes the row as the account stores it (a test key's: a watermark on every clip, the test flag;
    // it looks the account up) with a row's ids, so the largest row it passes is stored at release.
    const tester = { tenantId: 'acct_batch_tester', keyId: 'key_batch_tester' };
    await accounts.put({ tenantId: tester.tenantId, name: 'batch tests, test key', createdAt: clock.toISOString(), test: true });
    const template = await bigTemplate();
    const passes = (scale: number) =>
      checkRows(
        template,
        { webhook: 'https://hooks.test/batch', notifyEach: false, rows: readBatchRows([values(scale)]) },
        tester.tenantId,
        deps,
      ).then(
        () => true,
        () => false,
      );
    let [low, high] = [0.5, 1];
    expect(await passes(low)).toBe(true);
    expect(await passes(high)).toBe(false);
    while (high - low > 0.0005) {
      const middle = (low + high) / 2;
      if (await passes(middle)) low = middle;
      else high = middle;
    }
    const batchId = newBatchId();
    const command = rowCommand(template, values(low), limits.maxBatchRows - 1, 'https://hooks.test/batch');
    const made = await createVideo(
      command,
      tester,
      { ...deps, newVideoId: () => rowVideoId(batchId, limits.maxBatchRows - 1) },
      { batch: { batchId, row: limits.maxBatchRows - 1 }, roomChecked: true, sendsEvent: true },
    );
    expect(made).toMatchObject({ status: 'queued', test: true });
  }, 120_000);
});
