import { DynamoLexiconStore } from '#commons/aws/dynamo-lexicons';
import { readFields } from '#commons/body';
import { dynamoClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { httpHandler, json } from '#commons/http';
import { logger } from '#commons/logger';
import { toPublicLexicon } from '#commons/presenters/lexicon';
import { parseLexicon, saveLexicon } from '#domain/lexicon';
import { limits } from '#domain/limits';

const config = loadConfig({ tables: ['lexicons'] });
const lexicons = new DynamoLexiconStore(dynamoClient(), config.tables.lexicons);

export const handler = httpHandler({
  'PUT /v1/lexicon': async (request) => {
    const entries = parseLexicon(await readFields(request, limits.maxBodyBytes));
    const saved = await saveLexicon(request.caller.tenantId, entries, { lexicons, now: () => new Date() });
    logger.info('lexicon saved', { entries: entries.length });
    return json(200, toPublicLexicon(saved));
  },
  'GET /v1/lexicon': async (request) => json(200, toPublicLexicon(await lexicons.get(request.caller.tenantId))),
  'DELETE /v1/lexicon': async (request) => {
    await lexicons.delete(request.caller.tenantId);
    return json(200, { entries: [], updated_at: null });
  },
});
