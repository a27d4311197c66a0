import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayFunctions } from '../../fixtures/local/functions.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

let app: TestRuntime;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const echo = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${app.baseUrl}${path}`, init);
  const text = await response.text();
  return { response, body: JSON.parse(text) as Record<string, any> };
};

beforeAll(async () => {
  app = await startTestRuntime({ functions: gatewayFunctions, seed: false, concurrency: 1 });
}, 60_000);
afterAll(async () => app?.stop());

describe('local gateway: routing and the proxy event', () => {
  it('keeps the trailing slash in event.path and delivers it to the resource without it', async () => {
    // Prepare / Act
    const withSlash = await echo('/v1/bot/', { method: 'POST', headers: auth('good') });
    const without = await echo('/v1/bot', { method: 'POST', headers: auth('good') });
    // Assess
    expect(withSlash.response.status).toBe(200);
    expect(withSlash.body.event.path).toBe('/v1/bot/');
    expect(withSlash.body.event.resource).toBe('/v1/bot');
    expect(without.body.event.path).toBe('/v1/bot');
    expect(without.body.event.resource).toBe('/v1/bot');
  });

  it('fills pathParameters from the template, URL-decoded, and prefers literal segments', async () => {
    const param = await echo('/v1/video/vid%20123?x=1&x=2&y=a%2Bb', { headers: auth('good') });
    expect(param.body.event.resource).toBe('/v1/video/{id}');
    expect(param.body.event.pathParameters).toEqual({ id: 'vid 123' });
    expect(param.body.event.path).toBe('/v1/video/vid%20123');
    expect(param.body.event.queryStringParameters).toEqual({ x: '2', y: 'a+b' });
    expect(param.body.event.multiValueQueryStringParameters).toEqual({ x: ['1', '2'], y: ['a+b'] });

    const literal = await echo('/v1/video/latest', { headers: auth('good') });
    expect(literal.body.event.resource).toBe('/v1/video/latest');
    expect(literal.body.event.pathParameters).toBeNull();
    expect(literal.body.event.queryStringParameters).toBeNull();
  });

  it('builds an APIGatewayProxyEvent with headers, requestContext and the authorizer context', async () => {
    const { body } = await echo('/v1/echo', { headers: { ...auth('good'), 'X-Custom': 'one' } });
    const { event, context, env } = body;
    expect(event.httpMethod).toBe('GET');
    expect(event.headers['X-Custom'] ?? event.headers['x-custom']).toBe('one');
    expect(event.multiValueHeaders['X-Custom'] ?? event.multiValueHeaders['x-custom']).toEqual(['one']);
    expect(event.body).toBeNull();
    expect(event.isBase64Encoded).toBe(false);
    expect(event.requestContext).toMatchObject({
      stage: 'prod',
      resourcePath: '/v1/echo',
      httpMethod: 'GET',
      identity: { sourceIp: '127.0.0.1' },
      authorizer: { principalId: 'user-good', tenantId: 'acct_fixture', keyId: 'key_fixture', admin: 'false' },
    });
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event.requestContext.domainName).toMatch(/^127\.0\.0\.1:\d+$/);
    // The Lambda context honours the declared timeout and memory.
    expect(context.functionName).toBe('vidbot-echo');
    expect(context.remainingMs).toBeGreaterThan(3000);
    expect(context.remainingMs).toBeLessThanOrEqual(5000);
    expect(context.memory).toBe('256');
    // Exactly the declared resources reach the function.
    expect(env.mode).toBe('local');
    expect(env.table).toBe('vidbot-videos');
    expect(env.bucket).toBe('vidbot-local');
    expect(env.queue).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/000000000000\/vidbot-notify$/);
    expect(env.keys).not.toContain('TABLE_KEYS');
    expect(env.keys).toEqual(
      expect.arrayContaining([
        'AWS_ENDPOINT_URL_DYNAMODB',
        'AWS_ENDPOINT_URL_S3',
        'AWS_ENDPOINT_URL_SQS',
        'S3_FORCE_PATH_STYLE',
        'AWS_LAMBDA_FUNCTION_NAME',
      ]),
    );
  });

  it("delivers the wiring's binary media types (multipart, JSON) base64-encoded and other bodies as text", async () => {
    const form = new FormData();
    form.set('webhook', 'http://127.0.0.1/hook');
    form.set('clips', "[{'bot_uid': 'bot_ava', 'text': 'héllo'}]");
    const multipart = await echo('/v1/bot', { method: 'POST', headers: auth('good'), body: form });
    expect(multipart.body.event.isBase64Encoded).toBe(true);
    const decoded = Buffer.from(multipart.body.event.body, 'base64').toString('utf8');
    expect(decoded).toContain('name="clips"');
    expect(decoded).toContain('héllo');

    const json = await echo('/v1/bot', { method: 'POST', headers: { ...auth('good'), 'Content-Type': 'application/json' }, body: '{"a":"é"}' });
    expect(json.body.event.isBase64Encoded).toBe(true);
    expect(Buffer.from(json.body.event.body, 'base64').toString('utf8')).toBe('{"a":"é"}');

    const text = await echo('/v1/bot', { method: 'POST', headers: { ...auth('good'), 'Content-Type': 'text/plain' }, body: 'é' });
    expect(text.body.event.isBase64Encoded).toBe(false);
    expect(text.body.event.body).toBe('é');
  });

  it('maps the proxy result: headers, multiValueHeaders and base64 bodies', async () => {
    const json = await fetch(`${app.baseUrl}/v1/echo`, { headers: auth('good') });
    expect(json.headers.get('x-fixture')).toBe('echo');
    expect(json.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(json.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    const binary = await fetch(`${app.baseUrl}/v1/fixture/binary`, { headers: auth('good') });
    expect([...new Uint8Array(await binary.arrayBuffer())]).toEqual([0, 1, 2, 255]);
  });

  it('answers 502 in our error shape when the function throws or returns a malformed result', async () => {
    for (const path of ['/v1/fixture/throw', '/v1/fixture/malformed']) {
      const { response, body } = await echo(path, { headers: auth('good') });
      expect(response.status).toBe(502);
      expect(body).toEqual({ error: { code: 'internal_error', message: expect.any(String) } });
    }
  });
});

describe('local S3 through a function', () => {
  it('stores streamed uploads byte for byte (no aws-chunked framing in s3rver)', async () => {
    const upload = await fetch(`${app.baseUrl}/v1/fixture/upload`, { method: 'POST', headers: auth('good') });
    expect(upload.status).toBe(204);
    const s3 = new S3Client({ region: 'us-east-1', endpoint: app.runtime.endpoints.s3, forcePathStyle: true, credentials: app.runtime.credentials });
    const object = await s3.send(new GetObjectCommand({ Bucket: app.runtime.names.bucket, Key: 'fixture/upload.bin' }));
    const bytes = Buffer.from(await object.Body!.transformToByteArray());
    expect(bytes.equals(Buffer.alloc(100_000, 7))).toBe(true);
    s3.destroy();
  });
});

describe('local gateway: API Gateway responses in our shape', () => {
  it('404 for an unknown path, 405 with Allow for a known resource with another method', async () => {
    const unknown = await echo('/v1/nothing', { headers: auth('good') });
    expect(unknown.response.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');

    const doubleSlash = await echo('/v1//echo', { headers: auth('good') });
    expect(doubleSlash.response.status).toBe(404);

    const wrongMethod = await echo('/v1/echo', { method: 'DELETE', headers: auth('good') });
    expect(wrongMethod.response.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe('method_not_allowed');
    expect(wrongMethod.response.headers.get('allow')).toBe('GET');
  });

  it('413 for a body over the 10 MB limit', async () => {
    const { response, body } = await echo('/v1/bot', {
      method: 'POST',
      headers: { ...auth('good'), 'Content-Type': 'application/octet-stream' },
      body: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(body.error.code).toBe('payload_too_large');
  });

  it('serves auth: none routes without the authorizer', async () => {
    const { response, body } = await echo('/health');
    expect(response.status).toBe(200);
    expect(body).toEqual({ status: 'ok' });
  });
});

describe('local gateway: the Lambda authorizer', () => {
  it('401 with WWW-Authenticate when the header is missing or the authorizer says Unauthorized', async () => {
    for (const headers of [{}, auth('wrong')]) {
      const { response, body } = await echo('/v1/echo', { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="vidbot"');
      expect(body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    }
  });

  it('403 for a Deny policy, and a cached Allow is evaluated against each method ARN', async () => {
    const denied = await echo('/v1/echo', { headers: auth('deny') });
    expect(denied.response.status).toBe(403);
    expect(denied.body.error.code).toBe('unauthorized');

    const narrowAllowed = await echo('/v1/echo', { headers: auth('narrow') });
    expect(narrowAllowed.response.status).toBe(200);
    const narrowOther = await echo('/v1/video/abc', { headers: auth('narrow') });
    expect(narrowOther.response.status).toBe(403);
  });

  it('sends a TOKEN-type event when configured so', async () => {
    const other = await startTestRuntime({ functions: gatewayFunctions, seed: false, concurrency: 1, authorizerType: 'TOKEN' });
    try {
      const response = await fetch(`${other.baseUrl}/v1/echo`, { headers: auth('good') });
      expect(((await response.json()) as any).event.requestContext.authorizer.eventType).toBe('TOKEN');
    } finally {
      await other.stop();
    }
  }, 30_000);

  it('caches the decision per Authorization value', async () => {
    const first = await echo('/v1/echo', { headers: auth('good') });
    const second = await echo('/v1/video/x', { headers: auth('good') });
    expect(second.body.event.requestContext.authorizer.calls).toBe(first.body.event.requestContext.authorizer.calls);
    // The wiring declares a REQUEST authorizer, as the stack deploys it.
    expect(first.body.event.requestContext.authorizer.eventType).toBe('REQUEST');
  });
});
