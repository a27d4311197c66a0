import { logger } from '#commons/logger';
import { batchSummary } from '#commons/presenters/batch';
import { isSettled } from '#domain/batches';
import type { DeliverBatchMessage } from '#domain/messages';
import type { BatchStore } from '#domain/ports';
import type { EventOwner } from '../delivery-job.ts';

export interface BatchEventDeps {
  batches: Pick<BatchStore, 'get' | 'recordDeliveryAttempt'>;
}

/** A batch's batch.completed event, recorded on the batch (GET /v1/batches/{id} shows its attempts). */
export const batchEvents = (deps: BatchEventDeps): EventOwner<DeliverBatchMessage> => ({
  async load(message) {
    const batch = await deps.batches.get(message.tenantId, message.batchId);
    if (!batch?.delivery || !isSettled(batch.status)) {
      logger.info('event of a missing or unsettled batch dropped', { batch_id: message.batchId });
      return undefined;
    }
    return {
      logKeys: { batch_id: batch.batchId },
      webhookUrl: batch.webhookUrl,
      keyId: batch.keyId,
      delivery: batch.delivery,
      event: async () => ({ type: 'batch.completed' as const, timestamp: batch.completedAt ?? batch.updatedAt, data: batchSummary(batch) }),
      record: (attempt, state, chainId) => deps.batches.recordDeliveryAttempt(batch.tenantId, batch.batchId, attempt, state, chainId),
    };
  },
});
