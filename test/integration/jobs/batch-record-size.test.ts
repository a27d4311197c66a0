/**
 * A batch's rows are checked as their own create would be, the video record's size among the checks
 * (limits.maxVideoRecordBytes): a template that repeats a variable in many fields, whose every row's video would be
 * over 300 KiB as stored, is a 400 naming the row, not a batch accepted whose rows all fail when released.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
import { DynamoAccountStore, DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoUploadStore } from '#commons/aws/dynamo-uploads';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { checkRows } from '#domain/batch-request';
import { readBatchRows } from '#domain/batch-rows';
import type { AdvanceBatchDeps } from '#domain/batches';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { InvalidRequestError } from '#domain/errors';
import type { BatchTickMessage, DeliverBatchMessage, RenderClipMessage } from '#domain/messages';
import { parseTemplate, saveTemplate } from '#domain/templates';
import { startDynamo } from '../../support/dynamo.ts';
import { FolderObjectStore, RecordingQueue } from '../../support/fakes.ts';

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let deps: AdvanceBatchDeps;
const clock = new Date('2026-11-28T12:00:00Z');
const caller = { tenantId: 'acct_batch_size' };
const batchQueue = new RecordingQueue<BatchTickMessage>();

beforeAll(async () => {
  dynamo = await startDynamo();
  const accounts = new DynamoAccountStore(dynamo.client, 'accounts');
  await accounts.put({ tenantId: caller.tenantId, name: 'batch size', createdAt: clock.toISOString() });
  await accounts.setMaxVideosInProgress(caller.tenantId, 20);
  const bots = new DynamoBotCatalog(dynamo.client, 'bots');
  for (const bot of BUILT_IN_BOTS) await bots.put(bot);
  const objects = await FolderObjectStore.create(() => clock);
  const uploads = new DynamoUploadStore(dynamo.client, 'uploads');
  deps = {
    batches: new DynamoBatchStore(dynamo.client, 'batches'),
    videos: new DynamoVideoRepository(dynamo.client, 'videos', () => clock),
    accounts,
    bots,
    accountBots: new DynamoAccountBotStore(dynamo.client, 'accountBots'),
    clips: new DynamoClipLibrary(dynamo.client, 'clips'),
    objects,
    recordings: { uploads, objects },
    renderQueue: new RecordingQueue<RenderClipMessage>(),
    batchQueue,
    notifyQueue: new RecordingQueue<DeliverBatchMessage>(),
    now: () => clock,
    newVideoId: () => 'vid_unused',
    voices: { polly: false },
  };
}, 60_000);
afterAll(() => dynamo.stop());

const vars = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `{{${prefix}${i}}}`).join('');
const letters = (chars: number) => 'ệệệệệệ '.repeat(Math.ceil(chars / 7)).slice(0, chars - 1) + 'ệ';

it("refuses a batch whose row's video would be over the record size, naming the row", async () => {
  const overlays = Array.from({ length: 10 }, () => ({ type: 'image', url: `https://example.com/${vars('u', 4)}`, position: 'top-center' }));
  const clips = Array.from({ length: 10 }, (_, i) =>
    i < 3
      ? { bot_uid: 'bot_ava', audio_url: 'https://example.com/take.mp3', text: vars('t', 24), overlays }
      : { bot_uid: 'bot_ava', text: vars('s', 3), overlays },
  );
  const template = await saveTemplate(caller.tenantId, parseTemplate('big', { name: 'Big', create_video: true, clips }), {
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
  const check = (rows: Record<string, string>[]) =>
    checkRows(template, { webhook: 'https://hooks.test/batch', notifyEach: false, rows: readBatchRows(rows) }, caller.tenantId, deps).then(
      () => [],
      (error: InvalidRequestError) => error.problems.map((p) => p.path),
    );
  // The same template with half the text fits; with the full text, its second row is refused.
  expect(await check([values(0.5)])).toEqual([]);
  expect(await check([values(0.5), values(1)])).toEqual(['rows[1].clips']);
}, 120_000);
