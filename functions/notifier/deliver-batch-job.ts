import type { Mode } from '#commons/config';
import { logger } from '#commons/logger';
import { batchSummary } from '#commons/presenters/batch';
import { activeWebhookSecrets } from '#domain/api-keys';
import { isSettled } from '#domain/batches';
import type { DeliverBatchMessage } from '#domain/messages';
import type { BatchStore, KeyStore } from '#domain/ports';
import type { DeliverWebhookOptions, DeliveryResult } from './deliver.ts';
import { alreadyDelivered, attemptDelivery, carriedByAnotherChain, type DeliveryOutcome, type Receipt } from './delivery-chain.ts';

export interface DeliverBatchDeps {
  batches: Pick<BatchStore, 'get' | 'recordDeliveryAttempt'>;
  keys: Pick<KeyStore, 'findById'>;
  mode: Mode;
  now: () => Date;
  deliver?: (options: DeliverWebhookOptions) => Promise<DeliveryResult>;
}

/**
 * One attempt to deliver a batch's batch.completed event, on the schedule and signing of every event (one chain of
 * attempts per event), recorded on the batch (GET /v1/batches/{id} shows them).
 */
export async function deliverBatchEvent(message: DeliverBatchMessage, receipt: Receipt, deps: DeliverBatchDeps): Promise<DeliveryOutcome> {
  const { messageId } = receipt;
  const batch = await deps.batches.get(message.tenantId, message.batchId);
  if (!batch?.delivery || !isSettled(batch.status)) {
    logger.info('event of a missing or unsettled batch dropped', { batch_id: message.batchId });
    return { done: true };
  }
  const delivery = batch.delivery;
  if (alreadyDelivered(message, delivery)) return { done: true };
  if (carriedByAnotherChain(message, delivery, messageId)) {
    logger.info('duplicate delivery chain dropped', { batch_id: batch.batchId, event_id: message.eventId, chain: delivery.chainId });
    return { done: true };
  }
  const key = await deps.keys.findById(batch.keyId);
  const now = deps.now();
  const event = { type: 'batch.completed' as const, timestamp: batch.completedAt ?? batch.updatedAt, data: batchSummary(batch) };
  return attemptDelivery({
    send: { url: batch.webhookUrl, event, eventId: message.eventId, secrets: key ? activeWebhookSecrets(key, now) : [], mode: deps.mode, now },
    delivery,
    message,
    receipt,
    record: (attempt, state, chainId) => deps.batches.recordDeliveryAttempt(batch.tenantId, batch.batchId, attempt, state, chainId),
    owner: { batch_id: batch.batchId },
    deliver: deps.deliver,
  });
}
