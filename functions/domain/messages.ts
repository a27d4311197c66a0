/**
 * Messages on the queues. They carry ids only (the account's among them); the video record holds the truth. Each has a schema: a consumer
 * parses what it receives with it (functions/commons/queue-consumer.ts) and never trusts a cast.
 */
import { z } from 'zod';
import { BOT_UID_PATTERN } from './choices.ts';

const videoId = z.string().regex(/^vid_[A-Za-z0-9_-]{1,64}$/);
/**
 * The account the work is for, on every message: the queues' fairness is by account (on AWS the SQS message
 * group of a fair queue; locally the poller's), so one account's backlog does not hold up another's work.
 */
const tenantId = z.string().regex(/^acct_[A-Za-z0-9_-]{1,64}$/);

const clipIndex = z.number().int().min(0).max(99);
/**
 * Set by the fetch stage: the job's media from strangers' servers (a clip's background, images and recording, a
 * video's music) is in the bucket. Without it, a job that needs such media hands it to the fetch queue first.
 */
const fetched = z.literal(true).optional();

/** Render queue: render one clip of a video (one message per clip, so clips render in parallel). */
export const renderClipMessageSchema = z.object({
  kind: z.literal('render-clip'),
  tenantId,
  videoId,
  clipIndex,
  fetched,
});
export type RenderClipMessage = z.infer<typeof renderClipMessageSchema>;

/** Assemble queue: every clip is rendered; join them into the final video or voice track. */
export const assembleMessageSchema = z.object({
  kind: z.literal('assemble'),
  tenantId,
  videoId,
  fetched,
});
export type AssembleMessage = z.infer<typeof assembleMessageSchema>;

/**
 * Fetch queue: bring a clip's media (`clipIndex`), or the video's music (no `clipIndex`), from the caller's servers
 * into the bucket, then queue the clip's render or the video's assembly again, marked `fetched`. Waiting on a
 * stranger's server happens here, never in a render or assembly.
 */
export const fetchMediaMessageSchema = z.object({
  kind: z.literal('fetch-media'),
  tenantId,
  videoId,
  clipIndex: clipIndex.optional(),
});
export type FetchMediaMessage = z.infer<typeof fetchMediaMessageSchema>;

/**
 * Notify queue: deliver the video's event to its webhook. `attempt` counts from 1.
 * @internal Exported for its tests.
 */
export const deliverMessageSchema = z.object({
  kind: z.literal('deliver'),
  tenantId,
  videoId,
  eventId: z.string().min(1).max(200),
  attempt: z.number().int().min(1),
  /** Asked for with POST /v1/video/{id}/redeliver: sent even if an earlier attempt succeeded. */
  redelivery: z.boolean().optional(),
});
export type DeliverMessage = z.infer<typeof deliverMessageSchema>;

const botUid = z.string().regex(BOT_UID_PATTERN);
const botVersion = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** Prepare queue: make the look of one version of an account's bot (PUT /v1/bot/{uid}). */
export const prepareBotMessageSchema = z.object({
  kind: z.literal('prepare-bot'),
  tenantId,
  uid: botUid,
  version: botVersion,
});
export type PrepareBotMessage = z.infer<typeof prepareBotMessageSchema>;

/** Notify queue: deliver a bot's outcome (bot.ready or bot.failed) to its webhook. */
const deliverBotMessageSchema = z.object({
  kind: z.literal('deliver-bot'),
  tenantId,
  uid: botUid,
  version: botVersion,
  eventId: z.string().min(1).max(200),
  attempt: z.number().int().min(1),
  /** Asked for with POST /v1/bot/{uid}/redeliver: sent even if an earlier attempt succeeded. */
  redelivery: z.boolean().optional(),
});
export type DeliverBotMessage = z.infer<typeof deliverBotMessageSchema>;

const batchId = z.string().regex(/^bat_[A-Za-z0-9_-]{1,64}$/);

/** Notify queue: deliver a batch's batch.completed event to its webhook. */
const deliverBatchMessageSchema = z.object({
  kind: z.literal('deliver-batch'),
  tenantId,
  batchId,
  eventId: z.string().min(1).max(200),
  attempt: z.number().int().min(1),
  redelivery: z.boolean().optional(),
});
export type DeliverBatchMessage = z.infer<typeof deliverBatchMessageSchema>;

/** Everything the notifier delivers: a video's event, a bot's or a batch's. */
export const notifyMessageSchema = z.discriminatedUnion('kind', [deliverMessageSchema, deliverBotMessageSchema, deliverBatchMessageSchema]);
export type NotifyMessage = z.infer<typeof notifyMessageSchema>;

/**
 * Batch queue: one look of the batch worker at a batch (release rows as the account has room, count the settled
 * ones). `version` is the batch record's when the look was queued: a look of an older version is a duplicate
 * and is dropped, so a batch has one chain of looks.
 */
export const batchTickMessageSchema = z.object({
  kind: z.literal('batch-tick'),
  tenantId,
  batchId,
  version: z.number().int().min(0),
});
export type BatchTickMessage = z.infer<typeof batchTickMessageSchema>;

/** What the render, assemble and prepare dead-letter queues hold (read by the sweeper). */
export const deadLetteredJobSchema = z.discriminatedUnion('kind', [
  fetchMediaMessageSchema,
  renderClipMessageSchema,
  assembleMessageSchema,
  prepareBotMessageSchema,
]);
