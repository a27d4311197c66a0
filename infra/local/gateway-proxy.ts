/**
 * The Lambda proxy integration's request event as API Gateway (REST) builds it: header and query maps, the request
 * context, and the body as text or base64.
 */
import type { IncomingMessage } from 'node:http';
import { LOCAL_ACCOUNT } from './emulators.ts';
import type { Resource } from './routing.ts';

function mediaTypeMatches(contentType: string | undefined, patterns: string[]) {
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!media) return false;
  const [type, subtype] = media.split('/');
  return patterns.some((pattern) => {
    const [pType, pSub] = pattern.toLowerCase().split('/');
    return (pType === '*' || pType === type) && (pSub === '*' || pSub === subtype);
  });
}

/** Header maps as API Gateway builds them: names as the client sent them, last value wins in `headers`. */
function headerMaps(req: IncomingMessage) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    const existing = Object.keys(multiValueHeaders).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
    (multiValueHeaders[existing] ??= []).push(value);
    headers[existing] = value;
  }
  return { headers, multiValueHeaders };
}

function addHeader(headers: Record<string, string>, multi: Record<string, string[]>, name: string, value: string) {
  const existing = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  if (existing) return;
  headers[name] = value;
  multi[name] = [value];
}

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** REST APIs deliver query parameters URL-decoded; null when there are none. */
function queryMaps(rawQuery: string) {
  if (!rawQuery) return { single: null, multi: null };
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    (multi[name] ??= []).push(value);
    single[name] = value;
  }
  return Object.keys(single).length ? { single, multi } : { single: null, multi: null };
}

const requestTime = (date: Date) => {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
};

/** What a proxy event holds before the authorizer and the body: the same parts go to a REQUEST authorizer. */
export interface ProxyRequest {
  requestContext: Record<string, unknown>;
  requestParts: Record<string, unknown> & { headers: Record<string, string> };
}

/** The routed request's parts of the proxy event, X-Forwarded-* added as API Gateway adds them. */
export function proxyRequest(
  req: IncomingMessage,
  route: { resource: Resource; pathParameters: Record<string, string>; path: string; method: string; rawQuery: string },
  gateway: { apiId: string; stage: string; requestId: string },
): ProxyRequest {
  const { resource, pathParameters, path, method } = route;
  const { headers, multiValueHeaders } = headerMaps(req);
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  addHeader(headers, multiValueHeaders, 'X-Forwarded-For', sourceIp);
  addHeader(headers, multiValueHeaders, 'X-Forwarded-Port', String(req.socket.localPort ?? ''));
  addHeader(headers, multiValueHeaders, 'X-Forwarded-Proto', 'http');
  const query = queryMaps(route.rawQuery);
  const hasParams = Object.keys(pathParameters).length > 0;
  const host = headers[Object.keys(headers).find((k) => k.toLowerCase() === 'host') ?? 'Host'] ?? '127.0.0.1';
  const requestContext = requestContextOf(req, route, gateway, { host, sourceIp });
  const requestParts = {
    resource: resource.path,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: hasParams ? pathParameters : null,
    stageVariables: null,
  };
  return { requestContext, requestParts };
}

function requestContextOf(
  req: IncomingMessage,
  route: { resource: Resource; path: string; method: string },
  gateway: { apiId: string; stage: string; requestId: string },
  client: { host: string; sourceIp: string },
): Record<string, unknown> {
  const now = new Date();
  const { host, sourceIp } = client;
  return {
    accountId: LOCAL_ACCOUNT,
    apiId: gateway.apiId,
    resourceId: route.resource.path,
    resourcePath: route.resource.path,
    httpMethod: route.method,
    extendedRequestId: gateway.requestId,
    requestId: gateway.requestId,
    path: `/${gateway.stage}${route.path}`,
    stage: gateway.stage,
    protocol: `HTTP/${req.httpVersion}`,
    requestTime: requestTime(now),
    requestTimeEpoch: now.getTime(),
    domainName: host,
    domainPrefix: host.split('.')[0],
    identity: {
      sourceIp,
      userAgent: req.headers['user-agent'] ?? null,
      accessKey: null,
      accountId: null,
      apiKey: null,
      apiKeyId: null,
      caller: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      user: null,
      userArn: null,
      clientCert: null,
    },
  };
}

/** The body as the integration receives it: base64 for the binary media types, else text; null when empty. */
export function proxyBody(req: IncomingMessage, body: Buffer, binaryMediaTypes: string[]) {
  const binary = body.length > 0 && mediaTypeMatches(req.headers['content-type'], binaryMediaTypes);
  return { body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'), isBase64Encoded: binary };
}
