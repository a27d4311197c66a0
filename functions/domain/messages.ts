/**
 * Messages on the queues. They carry ids only; the video record holds the truth. Each has a schema: a consumer
 * parses what it receives with it (functions/commons/queue-consumer.ts) and never trusts a cast.
 */
import { z } from 'zod';

const videoId = z.string().regex(/^vid_[A-Za-z0-9_-]{1,64}$/);

/** Render queue: render one clip of a video (one message per clip, so clips render in parallel). */
export const renderClipMessageSchema = z.object({
  kind: z.literal('render-clip'),
  videoId,
  clipIndex: z.number().int().min(0).max(99),
});
export type RenderClipMessage = z.infer<typeof renderClipMessageSchema>;

/** Assemble queue: every clip is rendered; join them into the final video or voice track. */
export const assembleMessageSchema = z.object({
  kind: z.literal('assemble'),
  videoId,
});
export type AssembleMessage = z.infer<typeof assembleMessageSchema>;

/** Notify queue: deliver the video's event to its webhook. `attempt` counts from 1. */
export const deliverMessageSchema = z.object({
  kind: z.literal('deliver'),
  videoId,
  eventId: z.string().min(1).max(200),
  attempt: z.number().int().min(1),
  /** Asked for with POST /v1/video/{id}/redeliver: sent even if an earlier attempt succeeded. */
  redelivery: z.boolean().optional(),
});
export type DeliverMessage = z.infer<typeof deliverMessageSchema>;

/** What the render and assemble dead-letter queues hold (read by the sweeper). */
export const deadLetteredJobSchema = z.discriminatedUnion('kind', [renderClipMessageSchema, assembleMessageSchema]);
