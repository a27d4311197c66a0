/** POST /v1/uploads against mocked AWS clients: the record under the caller's account, a PUT link bound to the file. */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { limits } from '#domain/limits';
import { documents, invoke, s3, uploads, useMockedApi } from '../../support/api-handlers.ts';
import { restEvent } from '../../support/events.ts';

useMockedApi();

const post = (body: unknown, contentType = 'application/json') =>
  invoke(
    uploads,
    restEvent({
      method: 'POST',
      path: '/v1/uploads',
      headers: { 'Content-Type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );

describe('POST /v1/uploads', () => {
  it("records the upload under the caller's account and answers a PUT link that signs the type and the size", async () => {
    const response = await post({ content_type: 'audio/wav', size: 123_456 });
    expect(response.statusCode).toBe(201);
    const body = response.json;
    expect(body).toMatchObject({
      kind: 'audio',
      content_type: 'audio/wav',
      size: 123_456,
      upload_method: 'PUT',
      upload_headers: { 'Content-Type': 'audio/wav' },
    });
    expect(body.upload_id).toMatch(/^upl_[A-Za-z0-9_-]{16}$/);
    const link = new URL(body.upload_url);
    expect(link.pathname).toBe(`/upload-files/acct_test/${body.upload_id}`);
    expect(link.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    // No checksum of an empty body: S3 would refuse the real file against it.
    expect([...link.searchParams.keys()].filter((k) => k.toLowerCase().includes('checksum'))).toEqual([]);
    const hour = Date.parse(body.upload_url_expires_at) - Date.now();
    expect(hour).toBeGreaterThan(3500_000);
    expect(hour).toBeLessThanOrEqual(3600_000);
    const day = Date.parse(body.expires_at) - Date.now();
    expect(day).toBeGreaterThan(86_000_000);
    expect(day).toBeLessThanOrEqual(86_400_000);
    const stored = documents.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect(stored).toEqual([
      {
        TableName: 'uploads',
        Item: {
          tenantId: 'acct_test',
          uploadId: body.upload_id,
          kind: 'audio',
          contentType: 'audio/wav',
          sizeBytes: 123_456,
          createdAt: expect.any(String),
          expiresAt: Math.floor(Date.parse(body.expires_at) / 1000),
        },
        ConditionExpression: 'attribute_not_exists(uploadId)',
      },
    ]);
  });

  it('takes a form too (the size as text), and video content types make video uploads', async () => {
    const response = await post('content_type=video%2Fmp4&size=2048', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(201);
    expect(response.json).toMatchObject({ kind: 'video', content_type: 'video/mp4', size: 2048 });
  });

  it('refuses a content type not allowed, a size over its kind, and unknown fields, naming each; nothing is stored', async () => {
    const refused = await post({ content_type: 'text/html', size: 10, tenant_id: 'acct_other' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json.error.details).toEqual([
      { path: 'content_type', message: expect.stringMatching(/^must be one of audio\/wav, .*video\/webm$/) },
      { path: 'tenant_id', message: 'is not an upload field (content_type, size)' },
    ]);
    const tooLarge = await post({ content_type: 'audio/mpeg', size: limits.maxUploadBytes.audio + 1 });
    expect(tooLarge.json.error.details).toEqual([{ path: 'size', message: `must be at most ${limits.maxUploadBytes.audio} bytes for audio/mpeg` }]);
    for (const size of [0, -1, 1.5, '12abc', null]) {
      const bad = await post({ content_type: 'audio/mpeg', size });
      expect(bad.statusCode, String(size)).toBe(400);
      expect(bad.json.error.details.map((d: { path: string }) => d.path)).toEqual(['size']);
    }
    // Not "must be at least 0", which 0 reads as meeting.
    expect((await post({ content_type: 'audio/mpeg', size: 0 })).json.error.details[0].message).toBe('must be more than 0');
    expect(documents.commandCalls(PutCommand)).toHaveLength(0);
  });
});

describe('DELETE /v1/uploads/{id}', () => {
  const ID = 'upl_AAAAAAAAAAAAAAAA';
  const record = {
    tenantId: 'acct_test',
    uploadId: ID,
    kind: 'audio',
    contentType: 'audio/wav',
    sizeBytes: 10,
    createdAt: '2026-11-29T12:00:00.000Z',
    expiresAt: 2e9,
  };
  const withdraw = (id = ID) =>
    invoke(uploads, restEvent({ method: 'DELETE', path: `/v1/uploads/${id}`, resource: '/v1/uploads/{id}', pathParameters: { id } }));

  it('withdraws an upload not used yet: no request may take it, it no longer counts as pending, and its file is deleted', async () => {
    documents.on(GetCommand).resolves({ Item: record });
    const response = await withdraw();
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ upload_id: ID, deleted: true });
    expect(documents.commandCalls(UpdateCommand).map((c) => c.args[0].input)).toEqual([
      expect.objectContaining({
        Key: { tenantId: 'acct_test', uploadId: ID },
        UpdateExpression: 'SET usedBy = :usedBy, countsUntil = :countsUntil',
        ConditionExpression: 'attribute_exists(uploadId) AND attribute_not_exists(usedBy)',
        // Pending until its PUT link ends: created at 2026-11-29T12:00:00Z, plus an hour.
        ExpressionAttributeValues: { ':usedBy': 'withdrawn', ':countsUntil': Date.parse('2026-11-29T13:00:00Z') / 1000 },
      }),
    ]);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([`upload-files/acct_test/${ID}`]);
  });

  it('answers 409 for an upload a request uses (its file goes with that request), and 404 for one unknown or withdrawn', async () => {
    documents.on(GetCommand).resolves({ Item: { ...record, usedBy: 'bot:me:1' } });
    expect((await withdraw()).json.error.code).toBe('upload_in_use');
    // Taken by a request between the read and the write.
    documents.on(GetCommand).resolves({ Item: record });
    documents.on(UpdateCommand).rejects(Object.assign(new Error('taken'), { name: 'ConditionalCheckFailedException' }));
    expect((await withdraw()).statusCode).toBe(409);
    for (const item of [undefined, { ...record, usedBy: 'withdrawn' }]) {
      documents.on(GetCommand).resolves({ Item: item });
      expect((await withdraw()).statusCode).toBe(404);
    }
    expect((await withdraw('../etc')).statusCode).toBe(404);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });
});
