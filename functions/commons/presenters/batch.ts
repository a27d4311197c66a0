/** How callers see a batch (POST, GET /v1/batches[/{id}], DELETE, and the batch.completed event's data). */
import type { BatchRecord } from '#domain/batches';
import { presentAttempts } from './video.ts';

/** Rows by where they are: waiting to be released, their video in progress, or settled. */
const batchCounts = (batch: BatchRecord) => ({
  pending: batch.rowCount - batch.nextRow,
  in_progress: batch.inFlight.length,
  completed: batch.counts.completed,
  failed: batch.counts.failed,
  cancelled: batch.counts.cancelled,
});

export const batchUrl = (baseUrl: string, batchId: string) => `${baseUrl}/v1/batches/${batchId}`;

/** The batch.completed event's data: what the batch is and how it ended (`url`: where it was sent, unless `baseUrl`). */
export const batchSummary = (batch: BatchRecord, baseUrl?: string) => ({
  batch_id: batch.batchId,
  template_uid: batch.templateUid,
  // Sent with a test key: in the batch, its list and its batch.completed event.
  test: batch.test === true,
  status: batch.status,
  rows: batch.rowCount,
  counts: batchCounts(batch),
  created_at: batch.createdAt,
  completed_at: batch.completedAt ?? null,
  url: baseUrl === undefined ? batch.url : batchUrl(baseUrl, batch.batchId),
});

export const toPublicBatch = (batch: BatchRecord, baseUrl: string) => ({
  ...batchSummary(batch, baseUrl),
  template_name: batch.templateName,
  notify_each: batch.notifyEach,
  cancel_requested: batch.cancelRequested ?? false,
  updated_at: batch.updatedAt,
  webhook: {
    url: batch.webhookUrl,
    state: batch.delivery?.state ?? 'waiting',
    attempts: presentAttempts(batch.delivery?.attempts ?? []),
  },
});
