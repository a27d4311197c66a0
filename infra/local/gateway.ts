import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { api, apiResourcePath, type GatewayResponseDecl } from '../wiring.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './emulators.ts';
import { type FunctionHost, InvocationError } from './function-host.ts';
import { type ProxyRequest, proxyBody, proxyRequest } from './gateway-proxy.ts';
import { type AuthorizerResult, evaluatePolicy } from './iam-policy.ts';
import type { Log } from './log.ts';
import { matchResource, type Resource } from './routing.ts';
import { type Throttle, UsagePlanBuckets } from './usage-plan.ts';

export interface GatewayOptions {
  resources: Resource[];
  functions: Map<string, FunctionHost>;
  authorizer?: FunctionHost;
  /** TOKEN (`authorizationToken` = the Authorization header) or REQUEST (the request's headers, path, ...). */
  authorizerType: 'REQUEST' | 'TOKEN';
  authorizerCacheTtlSeconds: number;
  /** Content types delivered base64-encoded (API Gateway's binaryMediaTypes). */
  binaryMediaTypes: string[];
  /** API Gateway's payload limit. */
  maxBodyBytes: number;
  stage: string;
  apiId: string;
  /**
   * The usage plan's throttle of each API key (the authorizer's usageIdentifierKey); false: keys are still
   * required on authorised routes, but not throttled (benchmarks, load tests).
   */
  usagePlan: Throttle | false;
  log: Log;
}

/** API Gateway gives up on an integration after 29 s. */
const INTEGRATION_TIMEOUT_MS = 29_000;
/** What a route without a key (the inbox's address, the console, health) may send: a signed event is far smaller. */
const PUBLIC_ROUTE_MAX_BODY_BYTES = 256 * 1024;

interface Reply {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** The error responses API Gateway makes itself, in the shape of the CDK stack's gateway responses. */
const gatewayError = (status: number, code: string, message: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify({ error: { code, message } })),
});
/** An answer API Gateway makes itself, as the wiring declares it (the stack's gateway responses). */
const declared = (type: keyof typeof api.gatewayResponses, headers: Record<string, string> = {}) => {
  const response: GatewayResponseDecl = api.gatewayResponses[type];
  return gatewayError(response.status ?? 500, response.code, response.message, { ...response.headers, ...headers });
};
const errors = {
  notFound: () => declared('MISSING_AUTHENTICATION_TOKEN'),
  methodNotAllowed: (allowed: string[]) =>
    gatewayError(405, 'method_not_allowed', `Method not allowed here; use ${allowed.join(', ')}.`, { Allow: allowed.join(', ') }),
  tooLarge: () => declared('REQUEST_TOO_LARGE'),
  unauthorized: () => declared('UNAUTHORIZED'),
  denied: () => declared('ACCESS_DENIED'),
  // API Gateway's answers when the authorizer names no usage-plan key, and when that key is over its rate.
  noUsagePlanKey: () => declared('INVALID_API_KEY'),
  // As on AWS: the gateway response's own Retry-After (the wiring's), not the bucket's exact wait.
  throttled: () => declared('THROTTLED'),
  internal: (status: number) => ({ ...declared('DEFAULT_5XX'), status }),
  bodyTimeout: () => gatewayError(408, 'request_timeout', 'The request body arrived too slowly.'),
};

/** A body that trickles in slower than this is cut off (a slow client must not hold the gateway's memory). */
const BODY_TIMEOUT_MS = 30_000;

/**
 * Reads the body, only once the request is routed and authorised. Past the limit (declared or sent) it stops at
 * once: nothing more is read or stored, and the connection is closed after the 413.
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean; timedOut?: boolean }> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) return resolve({ body: Buffer.alloc(0), tooLarge: true });
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => finish({ body: Buffer.alloc(0), tooLarge: false, timedOut: true }), BODY_TIMEOUT_MS);
    const finish = (result: { body: Buffer; tooLarge: boolean; timedOut?: boolean }) => {
      clearTimeout(timer);
      req.removeAllListeners('data');
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ body: Buffer.alloc(0), tooLarge: true });
      else chunks.push(chunk);
    });
    req.on('end', () => finish({ body: Buffer.concat(chunks), tooLarge: false }));
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

export interface Gateway {
  listen(port: number): Promise<number>;
  close(): Promise<void>;
  clearAuthorizerCache(): void;
}

/** The gateway's handle on a request: its answer, and what the request log names. */
interface Handled {
  reply: Reply;
  function?: string;
  resource?: string;
}

type Method = NonNullable<ReturnType<Resource['methods']['get']>>;

/** What every request of one gateway shares. */
interface GatewayState {
  options: GatewayOptions;
  authorizer: ReturnType<typeof createAuthorizer>;
  buckets?: UsagePlanBuckets;
}

/** API Gateway (REST, Lambda proxy integrations, a Lambda authorizer) in front of the function hosts. */
export function createGateway(options: GatewayOptions): Gateway {
  const state: GatewayState = {
    options,
    authorizer: createAuthorizer(options),
    buckets: options.usagePlan ? new UsagePlanBuckets(options.usagePlan) : undefined,
  };
  const { server, sockets } = serve((req, requestId) => handle(state, req, requestId), options.log);
  return {
    listen: (port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    clearAuthorizerCache: () => state.authorizer.clearCache(),
  };
}

/** The Lambda authorizer, its results cached by identity (the Authorization header) for the configured TTL. */
function createAuthorizer(options: GatewayOptions) {
  const cache = new Map<string, { result: AuthorizerResult; expires: number }>();

  async function authorize(
    identity: string,
    methodArn: string,
    requestEvent: Record<string, unknown>,
  ): Promise<{ reply?: Reply; authorizer?: Record<string, unknown>; usageIdentifierKey?: string }> {
    const started = Date.now();
    let result = options.authorizerCacheTtlSeconds > 0 ? cache.get(identity) : undefined;
    if (result && result.expires < Date.now()) {
      cache.delete(identity);
      result = undefined;
    }
    if (!result) {
      if (!options.authorizer) {
        options.log.error('a route needs the authorizer but no function has trigger "authorizer"');
        return { reply: errors.internal(500) };
      }
      const event =
        options.authorizerType === 'TOKEN'
          ? { type: 'TOKEN', authorizationToken: identity, methodArn }
          : { type: 'REQUEST', methodArn, ...requestEvent };
      try {
        const value = (await options.authorizer.invoke(event)) as AuthorizerResult;
        evaluatePolicy(value, methodArn); // validates the shape before it is cached
        result = { result: value, expires: Date.now() + options.authorizerCacheTtlSeconds * 1000 };
        if (options.authorizerCacheTtlSeconds > 0) cache.set(identity, result);
      } catch (error) {
        if (error instanceof InvocationError && error.kind === 'handled' && error.errorMessage === 'Unauthorized')
          return { reply: errors.unauthorized() };
        options.log.error('authorizer failed', { error: (error as Error).message });
        return { reply: errors.internal(500) };
      }
    }
    // The cached policy is evaluated against this request's method ARN, as API Gateway does.
    if (evaluatePolicy(result.result, methodArn) === 'Deny') return { reply: errors.denied() };
    const context: Record<string, unknown> = {};
    // REST APIs hand the authorizer context to the integration with every value as a string.
    for (const [key, value] of Object.entries(result.result.context ?? {})) context[key] = value === null ? null : String(value);
    return {
      authorizer: { ...context, principalId: result.result.principalId, integrationLatency: Date.now() - started },
      usageIdentifierKey: typeof result.result.usageIdentifierKey === 'string' ? result.result.usageIdentifierKey : undefined,
    };
  }

  return { authorize, clearCache: () => cache.clear() };
}

async function handle(state: GatewayState, req: IncomingMessage, requestId: string): Promise<Handled> {
  const { options } = state;
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const method = (req.method ?? 'GET').toUpperCase();
  const match = matchResource(options.resources, path);
  if (!match) return { reply: errors.notFound() };
  const { resource, pathParameters } = match;
  const target = resource.methods.get(method);
  if (!target) return { reply: errors.methodNotAllowed([...resource.methods.keys()]), resource: resource.path };

  const route = { resource, pathParameters, path, method, rawQuery: q < 0 ? '' : rawUrl.slice(q + 1) };
  const proxy = proxyRequest(req, route, { apiId: options.apiId, stage: options.stage, requestId });
  const refused = target.auth ? await admit(state, proxy, path, method) : undefined;
  const reply = refused ?? (await integrate(state, req, target, proxy, requestId));
  return { reply, function: target.function, resource: resource.path };
}

/**
 * An authorised method's way in: a key in the Authorization header, the authorizer's Allow, a usage-plan key
 * within its rate. The refusal if any; else the authorizer's context is in the request context.
 */
async function admit(state: GatewayState, proxy: ProxyRequest, path: string, method: string): Promise<Reply | undefined> {
  const { options } = state;
  const { requestParts, requestContext } = proxy;
  const { headers } = requestParts;
  const authHeader = Object.keys(headers).find((k) => k.toLowerCase() === 'authorization');
  const identity = authHeader ? headers[authHeader]! : '';
  if (!identity.trim()) return errors.unauthorized();
  const methodArn = `arn:aws:execute-api:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${options.apiId}/${options.stage}/${method}${apiResourcePath(path)}`;
  const { reply, authorizer, usageIdentifierKey } = await state.authorizer.authorize(identity, methodArn, { ...requestParts, requestContext });
  if (reply) return reply;
  // Authorised methods require an API key, which the authorizer supplies (apiKeySourceType AUTHORIZER); the
  // usage plan's throttle then applies per key, before the function is invoked.
  if (!usageIdentifierKey) return errors.noUsagePlanKey();
  const retryAfter = state.buckets?.take(usageIdentifierKey) ?? 0;
  if (retryAfter > 0) return errors.throttled();
  requestContext.authorizer = authorizer;
  return undefined;
}

/** The body read, the function invoked with the proxy event, its result mapped to the answer. */
async function integrate(state: GatewayState, req: IncomingMessage, target: Method, proxy: ProxyRequest, requestId: string): Promise<Reply> {
  const { options } = state;
  // Only now is the body read: a request that is not routed or not authorised costs no reading at all, and a
  // public route (no key) may send no more than a create request may.
  const { body, tooLarge, timedOut } = await readBody(
    req,
    target.auth ? options.maxBodyBytes : Math.min(options.maxBodyBytes, PUBLIC_ROUTE_MAX_BODY_BYTES),
  );
  if (timedOut) return errors.bodyTimeout();
  if (tooLarge) return errors.tooLarge();
  const event = { ...proxy.requestParts, requestContext: proxy.requestContext, ...proxyBody(req, body, options.binaryMediaTypes) };
  const host$ = options.functions.get(target.function);
  if (!host$) return errors.internal(500);
  let result: unknown;
  try {
    result = await host$.invoke(event, { timeoutMs: INTEGRATION_TIMEOUT_MS });
  } catch (error) {
    const timedOut = error instanceof InvocationError && error.kind === 'timeout';
    options.log.error('integration failed', { function: target.function, requestId, error: (error as Error).message });
    return errors.internal(timedOut ? 504 : 502);
  }
  return toReply(result, options.log);
}

/** The HTTP server: each request handled, answered and logged; its open sockets, to close them with it. */
function serve(handler: (req: IncomingMessage, requestId: string) => Promise<Handled>, log: Log): { server: Server; sockets: Set<Socket> } {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const requestId = randomUUID();
    const started = Date.now();
    handler(req, requestId)
      .catch((error: Error) => {
        log.error('gateway error', { requestId, error: error.message, stack: error.stack });
        return { reply: errors.internal(500), function: undefined, resource: undefined };
      })
      .then(({ reply, function: fn, resource }) => {
        // A request answered before its body was read (refused, not routed, too large) closes its connection:
        // what the client still sends is never read.
        send(res, reply, requestId, !req.complete);
        log.info('request', {
          requestId,
          method: req.method,
          // The path alone: a query string may carry a credential (?api_key=…) and is never logged.
          path: (req.url ?? '/').split('?')[0],
          resource,
          function: fn,
          status: reply.status,
          durationMs: Date.now() - started,
        });
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return { server, sockets };
}

/** A Lambda proxy result as API Gateway maps it; anything malformed is a 502. */
function toReply(result: unknown, log: Log): Reply {
  const r = result as {
    statusCode?: unknown;
    headers?: Record<string, unknown>;
    multiValueHeaders?: Record<string, unknown[]>;
    body?: unknown;
    isBase64Encoded?: boolean;
  };
  if (!r || typeof r !== 'object' || typeof r.statusCode !== 'number' || (r.body !== undefined && r.body !== null && typeof r.body !== 'string')) {
    log.error('malformed Lambda proxy response', { result: JSON.stringify(result)?.slice(0, 500) });
    return errors.internal(502);
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(r.multiValueHeaders ?? {})) headers[name] = values.map(String);
  for (const [name, value] of Object.entries(r.headers ?? {})) {
    const existing = headers[name];
    headers[name] = Array.isArray(existing) ? [...existing.filter((v) => v !== String(value)), String(value)] : String(value);
  }
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  const text = typeof r.body === 'string' ? r.body : '';
  return { status: r.statusCode, headers, body: r.isBase64Encoded ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8') };
}

function send(res: ServerResponse, reply: Reply, requestId: string, close: boolean) {
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.setHeader('x-amzn-RequestId', requestId);
  res.setHeader('Content-Length', reply.body.length);
  if (close) {
    res.setHeader('Connection', 'close');
    res.end(reply.body, () => res.socket?.destroy());
  } else res.end(reply.body);
}
