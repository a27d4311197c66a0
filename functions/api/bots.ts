import { dynamoClient, s3Client } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { DynamoBotCatalog } from '#commons/aws/dynamo-stores';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { httpHandler } from '#commons/http';
import { getBot, listBots } from './bot-listing.ts';

const config = loadConfig({ tables: ['bots'], bucket: true });
const bots = new DynamoBotCatalog(dynamoClient(), config.tables.bots);
const objects = new S3ObjectStore(s3Client(), config.bucket);

export const handler = httpHandler({
  'GET /v1/bot': () => listBots(bots, objects, config.voices),
  'GET /v1/bot/': () => listBots(bots, objects, config.voices),
  'GET /v1/bot/{uid}': (request) => getBot(request.pathParams.uid ?? '', bots, objects, config.voices),
});
