import { httpHandler, json } from '#commons/http';
import { openApiDocument } from './openapi.ts';

export const handler = httpHandler(
  { 'GET /v1/openapi.json': async (request) => json(200, openApiDocument(request.baseUrl)) },
  { 'GET /health': async () => json(200, { status: 'ok' }) },
);
