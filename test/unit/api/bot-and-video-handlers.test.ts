/** The bots and videos handlers against mocked AWS clients: listing bots, reading and deleting a video, a bot changed meanwhile. */

import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DRAWN_PARTS } from '#domain/account-bot';
import { bots, createVideo, documents, invoke, sqs, useMockedApi, videos } from '../../support/api-handlers.ts';
import { restEvent } from '../../support/events.ts';

useMockedApi();

describe('POST /v1/bot/ (trailing slash): list bots', () => {
  it('reaches the /v1/bot resource with the raw path and lists the bots', async () => {
    const response = await invoke(createVideo, restEvent({ method: 'POST', path: '/v1/bot/', resource: '/v1/bot' }));
    expect(response.statusCode).toBe(200);
    expect(response.json.bots.map((b: { uid: string }) => b.uid)).toEqual(['bot_ava', 'bot_leo', 'bot_maya', 'bot_otto']);
    expect(response.json.bots[0]).toMatchObject({
      name: 'Ava',
      default_position: 'bottom-right',
      preview_image_url: expect.stringContaining('bots/ava/preview.png'),
    });
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });
});

describe('GET /v1/video/{id}', () => {
  it("answers 404 for another tenant's video, exactly as for a missing one", async () => {
    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: { videoId: 'vid_other', tenantId: 'acct_other', status: 'queued' } });
    const theirs = await invoke(
      videos,
      restEvent({ method: 'GET', path: '/v1/video/vid_other', resource: '/v1/video/{id}', pathParameters: { id: 'vid_other' } }),
    );
    documents.on(GetCommand, { TableName: 'videos' }).resolves({});
    const missing = await invoke(
      videos,
      restEvent({ method: 'GET', path: '/v1/video/vid_none', resource: '/v1/video/{id}', pathParameters: { id: 'vid_none' } }),
    );
    expect(theirs.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a redelivery while the event is still being delivered (409), allows it once delivered or failed', async () => {
    const video = {
      videoId: 'vid_mine',
      tenantId: 'acct_test',
      status: 'completed',
      delivery: { state: 'delivering', attempts: [{ attempt: 1 }], eventId: 'evt_vid_mine_completed' },
    };
    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: video });
    const event = restEvent({
      method: 'POST',
      path: '/v1/video/vid_mine/redeliver',
      resource: '/v1/video/{id}/redeliver',
      pathParameters: { id: 'vid_mine' },
    });
    expect((await invoke(videos, event)).statusCode).toBe(409);
    sqs.on(SendMessageCommand).resolves({});
    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: { ...video, delivery: { ...video.delivery, state: 'failed' } } });
    const accepted = await invoke(videos, event);
    expect(accepted.statusCode).toBe(202);
    expect(JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!)).toMatchObject({ redelivery: true, attempt: 2 });
  });

  it('DELETE answers 200 with a JSON body (the public client reads every answer as JSON), 409 while unfinished', async () => {
    const video = { videoId: 'vid_mine', tenantId: 'acct_test', status: 'rendering', delivery: { state: 'pending', attempts: [] } };
    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: video });
    documents.on(DeleteCommand).resolves({});
    const event = restEvent({ method: 'DELETE', path: '/v1/video/vid_mine', resource: '/v1/video/{id}', pathParameters: { id: 'vid_mine' } });
    expect((await invoke(videos, event)).statusCode).toBe(409);
    expect(documents.commandCalls(DeleteCommand)).toHaveLength(0);

    documents.on(GetCommand, { TableName: 'videos' }).resolves({ Item: { ...video, status: 'failed' } });
    const deleted = await invoke(videos, event);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.headers?.['Content-Type']).toMatch(/^application\/json/);
    expect(deleted.json).toEqual({ video_id: 'vid_mine', deleted: true });
    expect(documents.commandCalls(DeleteCommand)[0]!.args[0].input.Key).toEqual({ videoId: 'vid_mine' });
  });

  it('answers 405 for a method the resource does not serve, 400 for a bad limit', async () => {
    const wrong = await invoke(videos, restEvent({ method: 'PUT', path: '/v1/video', resource: '/v1/video' }));
    expect(wrong.statusCode).toBe(405);
    documents.on(QueryCommand).resolves({ Items: [] });
    const badLimit = await invoke(videos, restEvent({ method: 'GET', path: '/v1/video', query: { limit: '5000' } }));
    expect(badLimit.statusCode).toBe(400);
  });
});

describe('PUT and DELETE /v1/bot/{uid}: another request changed the bot meanwhile', () => {
  const lost = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
  const botEvent = (method: 'PUT' | 'DELETE', body?: unknown) =>
    restEvent({
      method,
      path: '/v1/bot/my-bot',
      resource: '/v1/bot/{uid}',
      pathParameters: { uid: 'my-bot' },
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });

  it('answers 409 conflict and queues nothing when the conditional write loses', async () => {
    documents.on(PutCommand, { TableName: 'accountBots' }).rejects(lost());
    const put = await invoke(bots, botEvent('PUT', { name: 'Mine', image_url: 'https://images.example.com/me.jpg' }));
    expect(put.statusCode, put.body).toBe(409);
    expect(put.json.error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/changed by another request/) });
    // No record was read, so the write expected none.
    expect(documents.commandCalls(PutCommand)[0]!.args[0].input.ConditionExpression).toBe('attribute_not_exists(uid)');
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);

    const stored = {
      tenantId: 'acct_test',
      uid: 'my-bot',
      keyId: 'key_test',
      name: 'Mine',
      description: '',
      voice: 'espeak:en-us+f3',
      defaultPosition: 'center',
      status: 'ready',
      version: 'v_read',
      source: { kind: 'photo_url', url: 'https://images.example.com/me.jpg' },
      createdAt: '2026-11-23T00:00:00Z',
      updatedAt: '2026-11-23T00:00:00Z',
    };
    documents.on(GetCommand, { TableName: 'accountBots' }).resolves({ Item: stored });
    documents.on(DeleteCommand, { TableName: 'accountBots' }).rejects(lost());
    const deleted = await invoke(bots, botEvent('DELETE'));
    expect(deleted.statusCode, deleted.body).toBe(409);
    expect(deleted.json.error).toMatchObject({ code: 'conflict' });
    // The record as read: its version, and its last update (a preparation that settled since changes it).
    expect(documents.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: '#version = :version AND #updatedAt = :updatedAt',
      ExpressionAttributeValues: { ':version': 'v_read', ':updatedAt': '2026-11-23T00:00:00Z' },
    });
  });
});

describe('PUT /v1/bot/{uid}: a drawn bot with every layer', () => {
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
  const put = async (files: Record<string, Buffer>) => {
    const form = new FormData();
    form.set('name', 'Drawn');
    for (const [field, bytes] of Object.entries(files)) form.set(field, new Blob([bytes], { type: 'image/png' }), `${field}.png`);
    const request = new Request('http://localhost/', { method: 'PUT', body: form });
    return invoke(
      bots,
      restEvent({
        method: 'PUT',
        path: '/v1/bot/my-drawing',
        resource: '/v1/bot/{uid}',
        pathParameters: { uid: 'my-drawing' },
        headers: { 'content-type': request.headers.get('content-type')! },
        body: Buffer.from(await request.arrayBuffer()),
      }),
    );
  };

  it('takes all seven layers (the mouth shapes too) and keeps each as an upload of the preparation', async () => {
    const accepted = await put(Object.fromEntries(DRAWN_PARTS.map((part) => [part, PNG])));
    expect(accepted.statusCode, accepted.body).toBe(202);
    const record = documents.commandCalls(PutCommand).find((call) => call.args[0].input.TableName === 'accountBots')!.args[0].input.Item!;
    expect(Object.keys(record.source.uploadKeys).sort()).toEqual([...DRAWN_PARTS].sort());
  });

  it('answers 400 naming a mouth shape that is not a PNG', async () => {
    const refused = await put({ mouth_closed: PNG, mouth_open: PNG, mouth_fv: Buffer.from('<svg/>') });
    expect(refused.statusCode).toBe(400);
    expect(refused.json.error.details).toEqual([{ path: 'mouth_fv', message: 'must be a PNG (with alpha)' }]);
  });
});
