/**
 * Batches: one video per row of data from a template (POST /v1/templates/{uid}/batches).
 *
 * Every row is checked when the batch is sent (batch-request.ts), as its own create request would be: one bad row refuses the
 * batch (a 400 naming each row and field) and nothing is made. The rows are then released into rendering by the
 * batch worker, a chain of looks on the batch queue (`advanceBatch`), as the account has room: a batch uses at
 * most `batchRoom` of the account's videos in progress, so the account's own creates still get through and a
 * 1000-row batch never meets the limit as failures. Other accounts are not delayed: every queue is fair by account.
 *
 * A row's video has an id derived from the batch and the row (`rowVideoId`), and the store refuses a second
 * video of one id: a look that crashed after making videos and before recording them is simply done again, and
 * the videos it made are found, never made twice. Each look saves the batch only if it is still the version it
 * read, and only the look that saved queues the next: one chain, whatever the queue redelivers.
 *
 * Clips that name no variable (an outro) are the same for every row: the first row is released alone and the
 * others once it has rendered them, so they find them in the render cache (`cached: true`), rendered once.
 */
import { rowVideoId } from './batch-ids.ts';
import { rowCommand, type StartBatchCommand } from './batch-request.ts';
import { batchInputKey } from './bucket-layout.ts';
import { ConflictError, InvalidRequestError, NotFoundError, TooManyBatchesInProgressError, TooManyVideosInProgressError } from './errors.ts';
import { liveAccountOf, videosInProgressLimit, videosInProgressRoom } from './fair-use.ts';
import { limits } from './limits.ts';
import type { BatchTickMessage, DeliverBatchMessage } from './messages.ts';
import { pendingWork } from './pending-work.ts';
import type { BatchStore, MessageQueue, ObjectStore } from './ports.ts';
import { claimRowRecordings, releaseRecordings } from './recordings.ts';
import { sharedClipIndexes, type TemplateRecord } from './templates.ts';
import { isTestAccount } from './test-mode.ts';
import type { ClaimDeps } from './uploads.ts';
import type { DeliveryAttempt, DeliveryState } from './video.ts';
import { isTerminal } from './video.ts';
import { type CreateVideoDeps, createVideo } from './videos.ts';

const BATCH_STATUSES = ['queued', 'running', 'completed', 'completed_with_failures', 'failed', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
const SETTLED: readonly BatchStatus[] = ['completed', 'completed_with_failures', 'failed', 'cancelled'];
export const isSettled = (status: BatchStatus) => SETTLED.includes(status);

export interface BatchRecord {
  tenantId: string;
  /** `bat_` + time + randomness: an account's batches sort by it newest first. */
  batchId: string;
  /** The key that sent it: its webhook secret signs the batch's events (and its videos'). */
  keyId: string;
  templateUid: string;
  templateName: string;
  /** Sent with a test key: its rows make test videos (domain/test-mode.ts). */
  test?: true;
  webhookUrl: string;
  /** The batch's address in the API it was sent to (the batch.completed event links it). */
  url: string;
  /** Each video's own event goes to the webhook too (else only batch.completed). */
  notifyEach: boolean;
  rowCount: number;
  status: BatchStatus;
  /** Rows before it are released (their videos made, or failed to be made); rows from it wait. */
  nextRow: number;
  /** Released rows whose video has not settled yet. */
  inFlight: number[];
  /** Settled rows by outcome. */
  counts: { completed: number; failed: number; cancelled: number };
  /** Rows whose video could not be made when released (its bot deleted meanwhile), with the reason. */
  rowErrors: Record<string, string>;
  /** Rows from this one on were cancelled before they were released. */
  cancelledFrom?: number;
  /** DELETE /v1/batches/{id} asked for it; the next look cancels what is not released. Never cleared. */
  cancelRequested?: boolean;
  /** Clips that name no variable: rendered by the first row before the others are released. */
  sharedClips: number[];
  /** Bumped by every look that saved; a look of another version is a duplicate. */
  version: number;
  /** Epoch seconds of the last saved look: the sweeper revives a batch whose looks stopped. */
  tickAt: number;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  /** The batch.completed event, once settled (as a video's delivery). */
  delivery?: { state: DeliveryState; attempts: DeliveryAttempt[]; eventId: string; chainId?: string };
}

/** What a batch was made from, stored beside it: the template as it was when sent, and each row's values. */
export interface BatchInput {
  template: Pick<TemplateRecord, 'uid' | 'name' | 'request' | 'variables'>;
  rows: Record<string, unknown>[];
}

const BATCH_ID = /^bat_[A-Za-z0-9_-]{1,64}$/;
const batchEventId = (batchId: string) => `evt_${batchId}_completed`;

/**
 * The share of an account's videos in progress its batches may take: a quarter (at least one) stays for its own
 * creates. An account allowed one video at a time gives it to the batch.
 */
export const batchRoom = (limit: number) => (limit <= 1 ? limit : limit - Math.max(1, Math.ceil(limit / 4)));

export interface StartBatchDeps {
  batches: Pick<BatchStore, 'create' | 'delete' | 'claimRunningSlot' | 'countRunning'>;
  objects: Pick<ObjectStore, 'putBytes'>;
  batchQueue: MessageQueue<BatchTickMessage>;
  accounts: CreateVideoDeps['accounts'];
  /** The account's uploads and their files: the rows' audio_upload are claimed for the batch. */
  recordings: Omit<ClaimDeps, 'now'>;
  now: () => Date;
  newBatchId: () => string;
}

/** Stores the batch (its input beside it) and queues its first look; the rows are checked already (checkRows). */
export async function startBatch(
  template: TemplateRecord,
  command: StartBatchCommand,
  caller: { tenantId: string; keyId: string; baseUrl: string },
  deps: StartBatchDeps,
): Promise<BatchRecord> {
  // An account allowed no video in progress would wait for ever.
  const account = await deps.accounts.get(caller.tenantId);
  const limit = await videosInProgressLimit(account, deps.accounts);
  if (limit === 0) throw new TooManyVideosInProgressError(0, limits.videosInProgressRetryAfterSeconds);
  const now = deps.now();
  const batchId = deps.newBatchId();
  const input: BatchInput = {
    template: { uid: template.uid, name: template.name, request: template.request, variables: template.variables },
    rows: command.rows.map((row) => row.values),
  };
  const claimDeps = { ...deps.recordings, now: deps.now };
  const rowCommands = input.rows.map((values, row) => rowCommand(input.template, values, row, command.webhookUrl));
  const uploadsTaken = await claimRowRecordings(rowCommands, caller.tenantId, batchId, claimDeps);
  try {
    return await storeBatch(input, command, { ...caller, test: isTestAccount(account) }, batchId, now, deps);
  } catch (error) {
    // No batch: the uploads it took go back to the caller, so a retry can name them.
    await releaseRecordings(uploadsTaken, caller.tenantId, batchId, claimDeps);
    throw error;
  }
}

/**
 * The running-batch slots an account may hold now: the limit; a test account's, what its live account's running
 * batches leave of it, so that a test key never doubles the limit and a live batch is never refused for test ones.
 * Read before the claim: a live batch started meanwhile may let the two pass the limit by the creates in flight.
 */
async function batchSlots(tenantId: string, deps: Pick<StartBatchDeps, 'accounts' | 'batches'>): Promise<number> {
  const liveTenantId = await liveAccountOf(tenantId, deps.accounts);
  if (!liveTenantId) return limits.maxBatchesInProgress;
  return Math.max(0, limits.maxBatchesInProgress - (await deps.batches.countRunning(liveTenantId)));
}

/** Stores the batch, claims a running slot for it, then stores its input and queues its first look; nothing is left on a refusal. */
async function storeBatch(
  input: BatchInput,
  command: StartBatchCommand,
  caller: { tenantId: string; keyId: string; baseUrl: string; test: boolean },
  batchId: string,
  now: Date,
  deps: StartBatchDeps,
): Promise<BatchRecord> {
  const template = input.template;
  const batch: BatchRecord = {
    tenantId: caller.tenantId,
    batchId,
    keyId: caller.keyId,
    templateUid: template.uid,
    templateName: template.name,
    ...(caller.test && { test: true as const }),
    webhookUrl: command.webhookUrl,
    url: `${caller.baseUrl}/v1/batches/${batchId}`,
    notifyEach: command.notifyEach,
    rowCount: command.rows.length,
    status: 'queued',
    nextRow: 0,
    inFlight: [],
    counts: { completed: 0, failed: 0, cancelled: 0 },
    rowErrors: {},
    sharedClips: sharedClipIndexes(template),
    version: 0,
    tickAt: Math.floor(now.getTime() / 1000),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await deps.batches.create(batch);
  // Stored first, then a slot claimed for it: a slot never names a batch that does not exist yet.
  if (!(await deps.batches.claimRunningSlot(caller.tenantId, batchId, await batchSlots(caller.tenantId, deps)))) {
    await deps.batches.delete(batch.tenantId, batchId);
    throw new TooManyBatchesInProgressError(limits.maxBatchesInProgress, limits.batchesInProgressRetryAfterSeconds);
  }
  try {
    // Written only once the batch has its slot: a refused create (429, sent again and again) stores no input.
    await deps.objects.putBytes(batchInputKey(caller.tenantId, batchId), JSON.stringify(input), { contentType: 'application/json' });
    await deps.batchQueue.send({ kind: 'batch-tick', tenantId: batch.tenantId, batchId, version: 0 });
  } catch (error) {
    // The caller gets an error and no id, and retries: leave no batch behind that the sweeper would start.
    await deps.batches.delete(batch.tenantId, batchId);
    throw error;
  }
  return batch;
}

export async function ownBatch(batches: Pick<BatchStore, 'get'>, tenantId: string, batchId: string): Promise<BatchRecord> {
  const batch = BATCH_ID.test(batchId) ? await batches.get(tenantId, batchId) : undefined;
  if (!batch) throw new NotFoundError(`No batch "${batchId}" in this account; list yours with GET /v1/batches.`);
  return batch;
}

/** DELETE /v1/batches/{id}: rows not yet released are cancelled by the next look; released ones finish. */
export async function cancelBatch(batches: Pick<BatchStore, 'get' | 'requestCancel'>, tenantId: string, batchId: string): Promise<BatchRecord> {
  const batch = await ownBatch(batches, tenantId, batchId);
  if (isSettled(batch.status) || !(await batches.requestCancel(tenantId, batchId)))
    throw new ConflictError(`Batch ${batchId} has already settled (${batch.status}); there is nothing left to cancel.`, 'batch_settled');
  return { ...batch, cancelRequested: true };
}

export interface AdvanceBatchDeps extends CreateVideoDeps {
  batches: Pick<BatchStore, 'get' | 'save'>;
  objects: Pick<ObjectStore, 'getText'>;
  batchQueue: MessageQueue<BatchTickMessage>;
  notifyQueue: MessageQueue<DeliverBatchMessage>;
}

/** What one look did: `stale` when it was a duplicate or lost the race to save (it queued nothing). */
export type LookOutcome = 'stale' | 'running' | 'settled';

/** How many rows may be released now: the batch's share of the account's room, less what is in progress. */
async function roomNow(batch: BatchRecord, next: BatchRecord, deps: AdvanceBatchDeps): Promise<number> {
  const { limit, inProgress } = await videosInProgressRoom(batch.tenantId, deps);
  const share = batchRoom(limit);
  let room = Math.min(share - Math.max(inProgress, next.inFlight.length), limits.maxBatchRowsInFlight - next.inFlight.length);
  if (next.sharedClips.length && next.nextRow === 0) room = Math.min(room, 1);
  else if (next.sharedClips.length && next.inFlight.includes(0)) {
    // The first row renders the shared clips; the others wait for them (or for it to end).
    const first = await deps.videos.get(rowVideoId(batch.batchId, 0));
    if (first && !isTerminal(first.status) && next.sharedClips.some((index) => first.clipResults[String(index)]?.status !== 'rendered')) room = 0;
  }
  return Math.max(0, room);
}

/** Makes the video of one row; false when it cannot be made (the reason is recorded on the batch). */
async function releaseRow(batch: BatchRecord, next: BatchRecord, input: BatchInput, row: number, deps: AdvanceBatchDeps): Promise<boolean> {
  const videoId = rowVideoId(batch.batchId, row);
  try {
    const command = rowCommand(input.template, input.rows[row] ?? {}, row, batch.webhookUrl);
    await createVideo(
      command,
      { tenantId: batch.tenantId, keyId: batch.keyId },
      { ...deps, newVideoId: () => videoId },
      { batch: { batchId: batch.batchId, row }, roomChecked: true, sendsEvent: batch.notifyEach },
    );
    return true;
  } catch (error) {
    if (error instanceof ConflictError && error.code === 'video_exists') {
      // Made by a look that crashed before saving: found, not made again. Its render messages may not have been
      // sent (a crash between the two): a video none of whose clips started gets them again (consumers are idempotent).
      const video = await deps.videos.get(videoId);
      if (video?.status === 'queued' && Object.values(video.clipResults).every((c) => c.status === 'queued'))
        await deps.renderQueue.sendBatch(pendingWork(video, Math.floor(deps.now().getTime() / 1000)).render);
      return true;
    }
    // The row was valid when the batch was sent; what changed since (a bot deleted or being replaced) fails it alone.
    if (error instanceof InvalidRequestError || error instanceof ConflictError) {
      const reason = error instanceof InvalidRequestError ? error.problems.map((p) => `${p.path}: ${p.message}`).join('; ') : error.message;
      next.rowErrors[String(row)] = reason.slice(0, 300);
      return false;
    }
    throw error;
  }
}

/**
 * One look at a batch: count the rows whose video settled, cancel what is not released if asked, release rows as
 * the account has room, and save. The look that saved queues the next one (or, once every row settled, the
 * batch.completed event). A look of another version than the stored one does nothing.
 */
export async function advanceBatch(message: BatchTickMessage, deps: AdvanceBatchDeps): Promise<LookOutcome> {
  const batch = await deps.batches.get(message.tenantId, message.batchId);
  if (!batch || batch.version !== message.version || isSettled(batch.status)) return 'stale';
  const next: BatchRecord = structuredClone(batch);

  for (const row of batch.inFlight) {
    const video = await deps.videos.get(rowVideoId(batch.batchId, row));
    if (video && !isTerminal(video.status)) continue;
    next.inFlight = next.inFlight.filter((r) => r !== row);
    if (video?.status === 'completed') next.counts.completed++;
    else {
      next.counts.failed++;
      if (!video) next.rowErrors[String(row)] = 'its video was deleted';
    }
  }

  if (next.cancelRequested && next.nextRow < next.rowCount) {
    next.cancelledFrom = next.nextRow;
    next.counts.cancelled += next.rowCount - next.nextRow;
    next.nextRow = next.rowCount;
  }

  if (next.nextRow < next.rowCount) {
    const room = await roomNow(batch, next, deps);
    if (room > 0) {
      const input = JSON.parse((await deps.objects.getText(batchInputKey(batch.tenantId, batch.batchId))) ?? 'null') as BatchInput | null;
      if (!input) throw new Error(`the input of batch ${batch.batchId} is missing`);
      for (let released = 0; released < room && next.nextRow < next.rowCount; released++) {
        const row = next.nextRow++;
        if (await releaseRow(batch, next, input, row, deps)) next.inFlight.push(row);
        else next.counts.failed++;
      }
    }
  }

  const now = deps.now();
  const settled = next.nextRow >= next.rowCount && next.inFlight.length === 0;
  next.status = settled ? finalStatus(next) : next.nextRow > 0 ? 'running' : 'queued';
  next.version = batch.version + 1;
  next.tickAt = Math.floor(now.getTime() / 1000);
  next.updatedAt = now.toISOString();
  if (settled) {
    next.completedAt = now.toISOString();
    next.delivery = { state: 'pending', attempts: [], eventId: batchEventId(batch.batchId) };
  }
  if (!(await deps.batches.save(next, batch.version))) return 'stale';
  if (settled) {
    await deps.notifyQueue.send({
      kind: 'deliver-batch',
      tenantId: batch.tenantId,
      batchId: batch.batchId,
      eventId: batchEventId(batch.batchId),
      attempt: 1,
    });
    return 'settled';
  }
  await deps.batchQueue.send(
    { kind: 'batch-tick', tenantId: batch.tenantId, batchId: batch.batchId, version: next.version },
    { delaySeconds: limits.batchTickSeconds },
  );
  return 'running';
}

/** Every row settled: completed, failed (no video completed), cancelled (asked, and rows were), or a mix. */
function finalStatus(batch: BatchRecord): BatchStatus {
  if (batch.cancelRequested && batch.counts.cancelled > 0) return 'cancelled';
  if (batch.counts.completed === batch.rowCount) return 'completed';
  if (batch.counts.completed === 0) return 'failed';
  return 'completed_with_failures';
}

/** A row as GET /v1/batches/{id} shows it: its video when it has one, else why not. */
export type RowState = { row: number; videoId?: string; state: 'pending' | 'cancelled' | 'failed' | 'released'; error?: string };

export function rowStates(batch: BatchRecord, from: number, limit: number): RowState[] {
  const rows: RowState[] = [];
  for (let row = from; row < Math.min(batch.rowCount, from + limit); row++) {
    const error = batch.rowErrors[String(row)];
    if (batch.cancelledFrom !== undefined && row >= batch.cancelledFrom) rows.push({ row, state: 'cancelled' });
    else if (row >= batch.nextRow) rows.push({ row, state: 'pending' });
    else if (error && error !== 'its video was deleted') rows.push({ row, state: 'failed', error });
    else rows.push({ row, videoId: rowVideoId(batch.batchId, row), state: 'released', ...(error && { error }) });
  }
  return rows;
}
