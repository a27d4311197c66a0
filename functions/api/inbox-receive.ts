/**
 * POST /v1/inbox/{account}: the account's webhook inbox. Public (a webhook sender has no bearer key): the
 * Standard Webhooks signature, checked against the account's own secrets, is the authentication.
 */

import { DynamoInbox } from '#commons/aws/dynamo-inbox';
import { DynamoKeyStore } from '#commons/aws/dynamo-stores';
import { dynamoClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { PayloadTooLargeError } from '#commons/errors';
import { httpHandler, json } from '#commons/http';
import { logger } from '#commons/logger';
import { toReceipt } from '#commons/presenters/inbox';
import { verifyWebhook } from '#commons/webhooks/signature';
import { INBOX_MAX_BODY_BYTES, receiveDelivery } from '#domain/inbox';

const config = loadConfig({ tables: ['keys', 'inbox'] });
const keys = new DynamoKeyStore(dynamoClient(), config.tables.keys);
const inbox = new DynamoInbox(dynamoClient(), config.tables.inbox);

export const handler = httpHandler(
  {},
  {
    'POST /v1/inbox/{account}': async (request) => {
      if (request.body.length > INBOX_MAX_BODY_BYTES) throw new PayloadTooLargeError(INBOX_MAX_BODY_BYTES);
      const event = await receiveDelivery(
        { keys, inbox, verify: verifyWebhook },
        { account: request.pathParams.account ?? '', body: request.body.toString('utf8'), headers: request.headers },
        new Date(),
      );
      logger.info('inbox delivery stored', { tenant_id: event.tenantId, webhook_id: event.webhookId });
      return json(200, toReceipt(event));
    },
  },
);
