import { DynamoAccountStore } from '#commons/aws/dynamo-stores';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { dynamoClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { NotFoundError } from '#commons/errors';
import { httpHandler, json } from '#commons/http';

const config = loadConfig({ tables: ['accounts', 'videos'] });
/** Counting reads the account's video index: bounded, so the answer stays fast for any account. */
const MAX_COUNTED_VIDEOS = 20_000;
const accounts = new DynamoAccountStore(dynamoClient(), config.tables.accounts);
const videos = new DynamoVideoRepository(dynamoClient(), config.tables.videos);

export const handler = httpHandler({
  'GET /v1/account': async (request) => {
    const { tenantId, keyId } = request.caller!;
    const [account, { counts, complete }] = await Promise.all([accounts.get(tenantId), videos.countByStatus(tenantId, MAX_COUNTED_VIDEOS)]);
    if (!account) throw new NotFoundError('This key has no account.');
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return json(200, {
      account_id: account.tenantId,
      name: account.name,
      created_at: account.createdAt,
      key_id: keyId,
      // complete: false means only the newest MAX_COUNTED_VIDEOS were counted.
      videos: { total, by_status: counts, complete },
    });
  },
});
