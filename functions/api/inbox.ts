/** GET /v1/inbox: the verified deliveries the caller's webhook inbox received, newest first, and its address. */

import { DynamoInbox } from '#commons/aws/dynamo-inbox';
import { dynamoClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { httpHandler, json } from '#commons/http';
import { inboxUrl, toPublicInboxEvent } from '#commons/presenters/inbox';
import { listInbox } from '#domain/inbox';
import { pageSize } from './paging.ts';

const config = loadConfig({ tables: ['inbox'] });
const inbox = new DynamoInbox(dynamoClient(), config.tables.inbox);

export const handler = httpHandler({
  'GET /v1/inbox': async (request) => {
    const tenantId = request.caller.tenantId;
    const page = await listInbox(inbox, tenantId, { limit: pageSize(request.query), cursor: request.query.cursor }, new Date());
    return json(200, {
      inbox_url: inboxUrl(request.baseUrl, tenantId),
      events: page.items.map(toPublicInboxEvent),
      next_cursor: page.nextCursor ?? null,
    });
  },
});
