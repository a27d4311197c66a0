import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoAccountStore, DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoTemplateStore } from '#commons/aws/dynamo-templates';
import { readFields } from '#commons/body';
import { dynamoClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { httpHandler, json } from '#commons/http';
import { logger } from '#commons/logger';
import { toPublicTemplate } from '#commons/presenters/template';
import { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import { deleteTemplate, ownTemplate, parseTemplate, saveTemplate } from '#domain/templates';
import { checkClips } from '#domain/videos';
import { pageSize } from './paging.ts';
import { unreachableProblems } from './unreachable.ts';

const config = loadConfig({ tables: ['templates', 'bots', 'accountBots', 'clips', 'accounts'] });
const templates = new DynamoTemplateStore(dynamoClient(), config.tables.templates);
const clipDeps = {
  bots: new DynamoBotCatalog(dynamoClient(), config.tables.bots),
  accountBots: new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots),
  clips: new DynamoClipLibrary(dynamoClient(), config.tables.clips),
  accounts: new DynamoAccountStore(dynamoClient(), config.tables.accounts),
  voices: config.voices,
};

export const handler = httpHandler({
  'PUT /v1/templates/{uid}': async (request) => {
    const { tenantId } = request.caller;
    const command = parseTemplate(request.pathParams.uid ?? '', await readFields(request, limits.maxBodyBytes));
    // The sample holds every placeholder's default: a default URL is refused now, as a value's is at create.
    const unreachable = unreachableProblems(command.sample, config.mode);
    if (unreachable.length) throw new InvalidRequestError(unreachable);
    // Checked as the sample request would be at create: its bots, voices and kept clips exist for this account.
    await checkClips(command.sample, tenantId, clipDeps);
    const saved = await saveTemplate(tenantId, command, { templates, now: () => new Date() });
    logger.info('template saved', { template_uid: saved.uid, variables: saved.variables.length });
    return json(200, toPublicTemplate(saved, request.baseUrl));
  },
  'GET /v1/templates': async (request) => {
    const page = await templates.list(request.caller.tenantId, { limit: pageSize(request.query), cursor: request.query.cursor });
    return json(200, { templates: page.items.map((t) => toPublicTemplate(t, request.baseUrl)), next_cursor: page.nextCursor ?? null });
  },
  'GET /v1/templates/{uid}': async (request) =>
    json(200, toPublicTemplate(await ownTemplate(templates, request.caller.tenantId, request.pathParams.uid ?? ''), request.baseUrl)),
  'DELETE /v1/templates/{uid}': async (request) => {
    const uid = request.pathParams.uid ?? '';
    await deleteTemplate(templates, request.caller.tenantId, uid);
    return json(200, { uid, deleted: true });
  },
});
