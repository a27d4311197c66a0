import { join } from 'node:path';
import type { FunctionName } from '../../wiring.ts';
import { ACCOUNT, type Arch, REGION, root } from './settings.ts';

// The harmless events. Each exercises its module past the cold start (config, clients, routing, parsing) without
// needing AWS; a new function in the wiring fails this check until it gets one here.

type Outcome = { outcome: 'returned'; value: any } | { outcome: 'threw'; error: { name?: string; message: string; code?: string } };
export interface Invocation {
  /** Why this event, in a few words (shown in the table). */
  what: string;
  event: unknown;
  /** A short description of the result when it is the expected one; throws otherwise. */
  expect(result: Outcome): string;
}

const portrait = join(root, 'test', 'fixtures', 'prepare', 'portrait.jpg');
/** The prepare image's probe.mjs (see 4. in check-lambda.ts), by runtime. */
export function prepareProbe(arch: Arch): Invocation & { module: string; timeoutMs: number } {
  if (arch === 'x64') {
    return {
      module: 'probe.mjs',
      what: "probe.mjs: a whole photo look from portrait.jpg with the image's own packages",
      event: { photo: portrait, mode: 'look' },
      timeoutMs: 180_000,
      expect(result) {
        if (result.outcome !== 'returned') throw new Error(`threw ${result.error.name}: ${result.error.message}`);
        const { look, files, bytes, modelsMs, workMs } = result.value;
        const heads = (files as string[]).filter((f) => /^head-m[0-4]-e[oc]\.png$/.test(f)).length;
        if (look !== 'photo' || heads !== 10 || !files.includes('manifest.json') || !files.includes('body.png'))
          throw new Error(`not a photo look: ${JSON.stringify(result.value).slice(0, 300)}`);
        return `photo look, ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB (models ${modelsMs} ms, look ${workMs} ms)`;
      },
    };
  }
  return {
    module: 'probe.mjs',
    what: 'probe.mjs: models loaded (ISNet session created) and one face detection, no ISNet inference (qemu)',
    event: { photo: portrait, mode: 'models' },
    timeoutMs: 900_000,
    expect(result) {
      if (result.outcome !== 'returned') throw new Error(`threw ${result.error.name}: ${result.error.message}`);
      const { faces, landmarks, modelsMs, workMs } = result.value;
      if (faces !== 1 || landmarks !== 68) throw new Error(`expected one face with 68 landmarks, got ${JSON.stringify(result.value)}`);
      return `1 face, 68 landmarks (models ${modelsMs} ms, detection ${workMs} ms)`;
    },
  };
}

const caller = { tenantId: 'tnt_check', keyId: 'key_check' };
function apiEvent(
  method: string,
  resource: string,
  path: string,
  options: { caller?: boolean; body?: string; headers?: Record<string, string>; pathParameters?: Record<string, string> } = {},
) {
  return {
    resource,
    path,
    httpMethod: method,
    headers: { Host: `abc123.execute-api.${REGION}.amazonaws.com`, 'X-Forwarded-Proto': 'https', ...options.headers },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body: options.body === undefined ? null : Buffer.from(options.body).toString('base64'),
    isBase64Encoded: options.body !== undefined,
    requestContext: {
      accountId: ACCOUNT,
      apiId: 'abc123',
      domainName: `abc123.execute-api.${REGION}.amazonaws.com`,
      stage: 'prod',
      requestId: 'check-lambda-request',
      httpMethod: method,
      path: `/prod${path}`,
      resourcePath: resource,
      identity: { sourceIp: '192.0.2.1' },
      authorizer: options.caller ? { ...caller, principalId: caller.keyId } : null,
    },
  };
}

function expectHttp(status: number, code?: string) {
  return (result: Outcome): string => {
    if (result.outcome !== 'returned') throw new Error(`threw ${result.error.name}: ${result.error.message}`);
    const body = result.value?.body ? JSON.parse(result.value.body) : undefined;
    if (result.value?.statusCode !== status) throw new Error(`answered ${result.value?.statusCode} ${result.value?.body?.slice(0, 300)}`);
    if (code && body?.error?.code !== code) throw new Error(`answered ${status} with error code ${body?.error?.code}, not ${code}`);
    return `${status}${code ? ` ${code}` : ''}`;
  };
}

const emptyBatch: Invocation = {
  what: 'SQS batch with no records',
  event: { Records: [] },
  expect(result) {
    if (result.outcome !== 'returned') throw new Error(`threw ${result.error.name}: ${result.error.message}`);
    if (JSON.stringify(result.value) !== JSON.stringify({ batchItemFailures: [] })) throw new Error(`returned ${JSON.stringify(result.value)}`);
    return '{batchItemFailures:[]}';
  },
};

export const invocations: Record<FunctionName, Invocation> = {
  authorizer: {
    what: 'malformed bearer key: refused before any key lookup',
    event: {
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:${REGION}:${ACCOUNT}:abc123/prod/GET/v1/video`,
      resource: '/v1/video',
      path: '/v1/video',
      httpMethod: 'GET',
      headers: { Authorization: 'Bearer not-a-vidbot-key' },
      requestContext: { stage: 'prod' },
    },
    expect(result) {
      if (result.outcome !== 'threw' || result.error.message !== 'Unauthorized')
        throw new Error(`expected to throw "Unauthorized", got ${JSON.stringify(result).slice(0, 300)}`);
      return 'throws "Unauthorized"';
    },
  },
  createVideo: {
    what: 'POST /v1/bot, JSON body that does not parse: 400 before any store',
    event: apiEvent('POST', '/v1/bot', '/v1/bot', { caller: true, body: '{"clips": [', headers: { 'Content-Type': 'application/json' } }),
    expect: expectHttp(400, 'invalid_request'),
  },
  bots: {
    what: 'GET /v1/bot without the authorizer context: 401 from the handler',
    event: apiEvent('GET', '/v1/bot', '/v1/bot'),
    expect: expectHttp(401, 'unauthorized'),
  },
  videos: {
    what: 'GET /v1/video/{id} with an id that cannot exist: 404 without a read',
    event: apiEvent('GET', '/v1/video/{id}', '/v1/video/not-a-video-id', { caller: true, pathParameters: { id: 'not-a-video-id' } }),
    expect: expectHttp(404, 'not_found'),
  },
  templates: {
    what: 'GET /v1/templates/{uid} with a uid that cannot exist: 404 without a read',
    event: apiEvent('GET', '/v1/templates/{uid}', '/v1/templates/NOT%20A%20UID', { caller: true, pathParameters: { uid: 'NOT A UID' } }),
    expect: expectHttp(404, 'not_found'),
  },
  lexicon: {
    what: 'GET /v1/lexicon without the authorizer context: 401 from the handler',
    event: apiEvent('GET', '/v1/lexicon', '/v1/lexicon'),
    expect: expectHttp(401, 'unauthorized'),
  },
  uploads: {
    what: 'POST /v1/uploads with a content type not allowed: 400 before any store or signature',
    event: apiEvent('POST', '/v1/uploads', '/v1/uploads', {
      caller: true,
      body: '{"content_type": "text/html", "size": 10}',
      headers: { 'Content-Type': 'application/json' },
    }),
    expect: expectHttp(400, 'invalid_request'),
  },
  batches: {
    what: 'GET /v1/batches/{id} with an id that cannot exist: 404 without a read',
    event: apiEvent('GET', '/v1/batches/{id}', '/v1/batches/not-a-batch', { caller: true, pathParameters: { id: 'not-a-batch' } }),
    expect: expectHttp(404, 'not_found'),
  },
  voices: {
    what: "GET /v1/voices: the catalog of the deployment (SPEECH_ENGINE=polly on AWS: Polly's voices too)",
    event: apiEvent('GET', '/v1/voices', '/v1/voices', { caller: true }),
    expect(result) {
      const summary = expectHttp(200)(result);
      const voices = JSON.parse((result as { value: { body: string } }).value.body).voices as { engine: string }[];
      const polly = voices.filter((v) => v.engine === 'polly').length;
      if (voices.length < 200 || polly === 0) throw new Error(`expected espeak-ng's and Polly's voices, got ${voices.length} (${polly} Polly)`);
      return `${summary} ${voices.length} voices, ${polly} of them Polly's`;
    },
  },
  account: {
    what: 'GET /v1/account without the authorizer context: 401 from the handler',
    event: apiEvent('GET', '/v1/account', '/v1/account'),
    expect: expectHttp(401, 'unauthorized'),
  },
  meta: {
    what: 'GET /v1/openapi.json: the whole document, built from the zod schemas',
    event: apiEvent('GET', '/v1/openapi.json', '/v1/openapi.json', { caller: true }),
    expect(result) {
      const summary = expectHttp(200)(result);
      const doc = JSON.parse((result as { value: { body: string } }).value.body);
      if (!String(doc.openapi).startsWith('3.1') || !doc.paths?.['/v1/bot'])
        throw new Error(`not the OpenAPI document: ${JSON.stringify(doc).slice(0, 200)}`);
      return `${summary} openapi ${doc.openapi}, ${Object.keys(doc.paths).length} paths`;
    },
  },
  console: {
    what: 'GET /: the console page, HTML with its script inline',
    event: apiEvent('GET', '/', '/'),
    expect(result) {
      if (result.outcome !== 'returned' || result.value?.statusCode !== 200)
        throw new Error(`expected 200, got ${JSON.stringify(result).slice(0, 300)}`);
      if (!String(result.value.headers?.['Content-Type']).startsWith('text/html') || !String(result.value.body).includes('<script>'))
        throw new Error('not the console page');
      return `200 text/html, ${result.value.body.length} characters`;
    },
  },
  inboxReceive: {
    what: 'POST /v1/inbox/{account} without signature headers: 401 before any key lookup',
    event: apiEvent('POST', '/v1/inbox/{account}', '/v1/inbox/acct_check', {
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
      pathParameters: { account: 'acct_check' },
    }),
    expect: expectHttp(401, 'invalid_signature'),
  },
  inbox: {
    what: 'GET /v1/inbox without the authorizer context: 401 from the handler',
    event: apiEvent('GET', '/v1/inbox', '/v1/inbox'),
    expect: expectHttp(401, 'unauthorized'),
  },
  fetcher: emptyBatch,
  render: emptyBatch,
  prepare: emptyBatch,
  prepareFootage: emptyBatch,
  assemble: emptyBatch,
  notifier: emptyBatch,
  batcher: emptyBatch,
  sweeper: {
    // Every sweep starts by reading the dead-letter queues: there is no event that needs no AWS. Its first call is
    // refused by the unreachable endpoint, which proves the module loaded, read its config and built and signed
    // an SDK request under this runtime.
    what: 'scheduled event: runs up to its first SDK call, refused by the unreachable endpoint',
    event: { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} },
    expect(result) {
      const text = result.outcome === 'threw' ? `${result.error.code ?? ''} ${result.error.message}` : '';
      if (!/ECONNREFUSED/.test(text))
        throw new Error(`expected the SDK call to be refused (ECONNREFUSED), got ${JSON.stringify(result).slice(0, 300)}`);
      return 'first SDK call refused (ECONNREFUSED), as expected';
    },
  },
};
