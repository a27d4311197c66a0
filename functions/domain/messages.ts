/** Messages on the queues. They carry ids only; the video record holds the truth. */

/** Render queue: render one clip of a video (one message per clip, so clips render in parallel). */
export interface RenderClipMessage {
  kind: 'render-clip';
  videoId: string;
  clipIndex: number;
}

/** Assemble queue: every clip is rendered; join them into the final video or voice track. */
export interface AssembleMessage {
  kind: 'assemble';
  videoId: string;
}

/** Notify queue: deliver the video's event to its webhook. `attempt` counts from 1. */
export interface DeliverMessage {
  kind: 'deliver';
  videoId: string;
  eventId: string;
  attempt: number;
  /** Asked for with POST /v1/video/{id}/redeliver: sent even if an earlier attempt succeeded. */
  redelivery?: boolean;
}
