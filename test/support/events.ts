import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/** The spec's sample request, as its curl -F sends it: scheme-less webhook, single-quoted strings in clips. */
export const SPEC_SAMPLE_FIELDS = {
  webhook: 'www.website.com/webhook',
  create_video: 'true',
  clips:
    `[{"bot_uid": 'bot_ava', "text": 'Welcome to our product tour!', "bot_position": 'bottom-right', "remove_bot_background": true, ` +
    `"background": 'https://www.website.com/background.mp4', "background_volume": 0.5, "transitions": 'fade_in fade_out', ` +
    `"reusable_clip": false, "clip_name": 'Intro'}, ` +
    `{"bot_uid": 'bot_leo', "text": 'Let me show you around.', "bot_position": 'top-left', "remove_bot_background": false, ` +
    `"background": 'https://www.website.com/background.mp4', "background_volume": 0.2, "transitions": 'fade_in fade_out', ` +
    `"reusable_clip": true, "clip_name": 'Tour'}]`,
};

/** A multipart/form-data body exactly as curl -F (or fetch with FormData) sends it. */
export async function multipart(fields: Record<string, string>): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/**
 * An API Gateway REST (v1) proxy event as the service receives it: `resource` is the API Gateway resource
 * (no trailing slash exists there), `path` the raw path; binary bodies (multipart) arrive base64-encoded.
 */
export function restEvent(options: {
  method: string;
  path: string;
  resource?: string;
  pathParameters?: Record<string, string>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: Buffer | string;
  base64?: boolean;
  caller?: { tenantId: string; keyId: string } | null;
}): APIGatewayProxyEvent {
  const body = options.body === undefined ? null : options.body;
  const base64 = options.base64 ?? Buffer.isBuffer(body);
  const headers = { Host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'X-Forwarded-Proto': 'https', ...options.headers };
  const caller = options.caller === undefined ? { tenantId: 'acct_test', keyId: 'key_test' } : options.caller;
  return {
    resource: options.resource ?? options.path.replace(/\/$/, ''),
    path: options.path,
    httpMethod: options.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body:
      body === null ? null : Buffer.isBuffer(body) ? body.toString(base64 ? 'base64' : 'utf8') : base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authorizer: caller ? { principalId: caller.keyId, tenantId: caller.tenantId, keyId: caller.keyId, integrationLatency: 12 } : null,
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      httpMethod: options.method,
      identity: { sourceIp: '203.0.113.9', userAgent: 'curl/8.5.0' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: `/prod${options.path}`,
      protocol: 'HTTP/1.1',
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      requestTimeEpoch: Date.now(),
      resourceId: 'res1',
      resourcePath: options.resource ?? options.path.replace(/\/$/, ''),
      stage: 'prod',
    },
  };
}

/** A Lambda context; `timeoutSeconds` is the function's (its time left counts down from it). */
export const lambdaContext = (name = 'test', timeoutSeconds = 10): Context => {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${name}`,
    memoryLimitInMB: '256',
    awsRequestId: 'aws-req-1',
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};
