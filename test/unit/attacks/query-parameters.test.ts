/**
 * A query parameter a route does not read was ignored: `POST …/batches?dry_run=true` made a real batch. Every
 * route now refuses any parameter it does not read, naming it (never echoing its value), before doing anything.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { unknownQueryProblems } from '#commons/query-parameters';
import { createVideo, documents, invoke, templates, useMockedApi, videos } from '../../support/api-handlers.ts';
import { restEvent } from '../../support/events.ts';

useMockedApi();

const body = JSON.stringify({ webhook: 'https://example.com/h', clips: [{ bot_uid: 'bot_ava', text: 'Hello.' }] });

describe('query parameters a route does not read', () => {
  it('refuses ?dry_run=true on a create: 400 naming it, nothing stored or queued', async () => {
    const response = await invoke(
      createVideo,
      restEvent({ method: 'POST', path: '/v1/bot', headers: { 'Content-Type': 'application/json' }, query: { dry_run: 'true' }, body }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details).toEqual([
      { path: 'query.dry_run', message: 'is not a query parameter of POST /v1/bot (it takes none; fields go in the body)' },
    ]);
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('refuses an unknown one beside known ones on a list, and never echoes a value', async () => {
    documents.on(QueryCommand, { TableName: 'videos' }).resolves({ Items: [] });
    const response = await invoke(videos, restEvent({ method: 'GET', path: '/v1/video', query: { limit: '5', api_key: 'vb_SECRET' } }));
    expect(response.statusCode).toBe(400);
    expect(response.json.error.details).toEqual([
      { path: 'query.api_key', message: 'is not a query parameter of GET /v1/video (it takes limit, cursor)' },
    ]);
    expect(response.body).not.toContain('vb_SECRET');
    expect((await invoke(videos, restEvent({ method: 'GET', path: '/v1/video', query: { limit: '5' } }))).statusCode).toBe(200);
  });

  it('refuses one on a route that takes none (GET /v1/templates/{uid}?x=1)', async () => {
    documents.on(GetCommand, { TableName: 'templates' }).resolves({});
    const response = await invoke(
      templates,
      restEvent({ method: 'GET', path: '/v1/templates/t', resource: '/v1/templates/{uid}', pathParameters: { uid: 't' }, query: { x: '1' } }),
    );
    expect(response.statusCode).toBe(400);
  });

  it('names dry_run on the batch route, whose dry run is a body field', () => {
    expect(unknownQueryProblems('POST /v1/templates/{uid}/batches', { dry_run: 'true' })).toEqual([
      { path: 'query.dry_run', message: 'is not a query parameter of POST /v1/templates/{uid}/batches (it takes none; fields go in the body)' },
    ]);
  });
});
