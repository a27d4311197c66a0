import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoAccountStore, DynamoBotCatalog } from '#commons/aws/dynamo-stores';
import { DynamoUploadStore } from '#commons/aws/dynamo-uploads';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { readFieldsAndFiles } from '#commons/body';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { httpHandler, json, type KeyedRequest } from '#commons/http';
import { logger } from '#commons/logger';
import { refusalWithoutResolving } from '#commons/net/address-guard';
import { presentAccountBot } from '#commons/presenters/bot';
import { BOT_FILE_FIELDS, parsePutBot } from '#domain/account-bot-request';
import { deleteAccountBot, putAccountBot, redeliverBotEvent } from '#domain/account-bots';
import { newId } from '#domain/api-keys';
import { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { DeliverBotMessage, PrepareBotMessage } from '#domain/messages';
import { getBot, listBots } from './bot-listing.ts';

const config = loadConfig({ tables: ['bots', 'accountBots', 'uploads', 'accounts'], queues: ['prepare', 'footage', 'notify'], bucket: true });
const deps = {
  bots: new DynamoBotCatalog(dynamoClient(), config.tables.bots),
  accountBots: new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots),
  accounts: new DynamoAccountStore(dynamoClient(), config.tables.accounts),
  uploads: new DynamoUploadStore(dynamoClient(), config.tables.uploads),
  objects: new S3ObjectStore(s3Client(), config.bucket),
  prepareQueue: new SqsQueue<PrepareBotMessage>(sqsClient(), config.queues.prepare),
  footageQueue: new SqsQueue<PrepareBotMessage>(sqsClient(), config.queues.footage),
  notifyQueue: new SqsQueue<DeliverBotMessage>(sqsClient(), config.queues.notify),
  now: () => new Date(),
  newVersion: () => newId('v'),
  // Polly voices are offered only where the deployment speaks with Polly (on AWS with SPEECH_ENGINE=polly).
  voices: config.voices,
};

/** A webhook or image_url naming an address vidbot never connects to is refused now, not when the job runs into it. */
function refuseUnreachable(urls: Record<string, string | undefined>) {
  const problems = Object.entries(urls).flatMap(([path, value]) => {
    const reason = value ? refusalWithoutResolving(new URL(value), config.mode) : undefined;
    return reason ? [{ path, message: `points at an address vidbot does not connect to (${reason.replace(/_/g, ' ')})` }] : [];
  });
  if (problems.length) throw new InvalidRequestError(problems);
}

async function putBot(request: KeyedRequest) {
  const caller = request.caller;
  const { fields, files } = await readFieldsAndFiles(request, {
    maxBytes: limits.maxBotBodyBytes,
    maxFileBytes: limits.maxBotImageBytes,
    fileFields: [...BOT_FILE_FIELDS],
    // API Gateway and Lambda carry no more (limits.maxBotBodyBytes); a URL carries up to the image limit.
    tooLargeHint:
      `Send a larger photo by image_url (up to ${limits.maxBotImageBytes / 1024 / 1024} MB), ` +
      `and a larger recording by video_url or video_upload (POST /v1/uploads, up to ${limits.maxRecordingBytes / 1024 / 1024} MB).`,
  });
  const command = parsePutBot(request.pathParams.uid ?? '', fields, files, config.voices);
  refuseUnreachable({
    webhook: command.webhookUrl,
    image_url: command.images.kind === 'photo_url' ? command.images.url : undefined,
    video_url: command.images.kind === 'video_url' ? command.images.url : undefined,
  });
  const bot = await putAccountBot(command, caller, deps);
  logger.info('bot accepted for preparation', { bot_uid: bot.uid, version: bot.version, source: bot.source.kind });
  return json(202, await presentAccountBot(bot, deps.objects, config.voices));
}

export const handler = httpHandler({
  'GET /v1/bot': (request) => listBots(request.caller.tenantId, deps),
  'GET /v1/bot/': (request) => listBots(request.caller.tenantId, deps),
  'GET /v1/bot/{uid}': (request) => getBot(request.caller.tenantId, request.pathParams.uid ?? '', deps),
  'PUT /v1/bot/{uid}': putBot,
  'DELETE /v1/bot/{uid}': async (request) => {
    const bot = await deleteAccountBot(request.caller.tenantId, request.pathParams.uid ?? '', deps);
    logger.info('bot deleted', { bot_uid: bot.uid });
    return json(200, { uid: bot.uid, deleted: true });
  },
  'POST /v1/bot/{uid}/redeliver': async (request) => {
    const { bot, eventId } = await redeliverBotEvent(deps, request.caller.tenantId, request.pathParams.uid ?? '');
    logger.info('bot event redelivery requested', { bot_uid: bot.uid, event_id: eventId });
    return json(202, { uid: bot.uid, event_id: eventId, status: 'redelivery_queued' });
  },
});
