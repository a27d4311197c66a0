/**
 * One attempt to deliver an event, whatever it is about: a video's, a bot's or a batch's. The owner adapter of the
 * message's kind (owners/) loads what the event is about, builds the event and records the attempt; the rest is
 * the same for every event: one chain of attempts per event (delivery-chain.ts), the account's signing secrets, one
 * signed POST (deliver.ts). After the last attempt of the schedule the message goes to the dead-letter queue.
 */
import type { Mode } from '#commons/config';
import { logger } from '#commons/logger';
import type { BatchEvent, BotEvent, VideoEvent } from '#commons/webhooks/event';
import { activeWebhookSecrets } from '#domain/api-keys';
import type { NotifyMessage } from '#domain/messages';
import type { KeyStore } from '#domain/ports';
import type { DeliveryAttempt, DeliveryState } from '#domain/video';
import type { DeliverWebhookOptions, DeliveryResult } from './deliver.ts';
import {
  alreadyDelivered,
  attemptDelivery,
  carriedByAnotherChain,
  type DeliveryOutcome,
  type Receipt,
  type RecordedDelivery,
} from './delivery-chain.ts';

export type { DeliveryOutcome, Receipt } from './delivery-chain.ts';

/** What an event is about, loaded for one attempt. */
export interface OwnedEvent {
  /** Names the owner in log lines: `{ video_id }`, `{ bot_uid }`, `{ batch_id }`. */
  logKeys: Record<string, string>;
  webhookUrl: string;
  /** The key the owner was made with: its account's webhook secrets sign the event. */
  keyId: string;
  delivery: RecordedDelivery | undefined;
  /** The event, the same on every attempt. */
  event: (now: Date) => Promise<VideoEvent | BotEvent | BatchEvent>;
  /** Records an attempt on the owner (the chain is the message that made it). */
  record: (attempt: DeliveryAttempt, state: DeliveryState, chainId: string) => Promise<void>;
}

/** The adapter of one kind of event's owner. */
export interface EventOwner<M> {
  /** What the message's event is about, or undefined when the event is dropped (the adapter logs why). */
  load: (message: M) => Promise<OwnedEvent | undefined>;
}

/** The owner adapter of every kind of notify message. */
export type EventOwners = { [K in NotifyMessage['kind']]: EventOwner<Extract<NotifyMessage, { kind: K }>> };

export interface DeliveryDeps {
  owners: EventOwners;
  keys: Pick<KeyStore, 'findById'>;
  mode: Mode;
  now: () => Date;
  deliver?: (options: DeliverWebhookOptions) => Promise<DeliveryResult>;
}

export async function deliverEvent(message: NotifyMessage, receipt: Receipt, deps: DeliveryDeps): Promise<DeliveryOutcome> {
  const owner = await ownerOf(message, deps.owners);
  if (!owner) return { done: true };
  const { logKeys, delivery } = owner;
  if (alreadyDelivered(message, delivery)) {
    logger.info('event already delivered', { ...logKeys, event_id: message.eventId });
    return { done: true };
  }
  if (carriedByAnotherChain(message, delivery, receipt.messageId)) {
    logger.info('duplicate delivery chain dropped', { ...logKeys, event_id: message.eventId, chain: delivery?.chainId });
    return { done: true };
  }
  const key = await deps.keys.findById(owner.keyId);
  const now = deps.now();
  const event = await owner.event(now);
  return attemptDelivery({
    send: { url: owner.webhookUrl, event, eventId: message.eventId, secrets: key ? activeWebhookSecrets(key, now) : [], mode: deps.mode, now },
    delivery,
    message,
    receipt,
    record: owner.record,
    owner: logKeys,
    deliver: deps.deliver,
  });
}

/** The message's owner, through the adapter of its kind. */
function ownerOf(message: NotifyMessage, owners: EventOwners): Promise<OwnedEvent | undefined> {
  switch (message.kind) {
    case 'deliver':
      return owners.deliver.load(message);
    case 'deliver-bot':
      return owners['deliver-bot'].load(message);
    case 'deliver-batch':
      return owners['deliver-batch'].load(message);
  }
}
