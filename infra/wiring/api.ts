/** The REST API: API Gateway's own settings and answers, and the methods the http functions' routes make. */
import { KEY_REQUIRED, WWW_AUTHENTICATE } from '#commons/gateway-messages';
import type { FunctionDecl, GatewayResponseDecl, Route } from './declarations.ts';
import { type FunctionName, functions } from './functions.ts';

/** The REST API's own settings, shared by the stack and the local gateway. */
export const api = {
  stageName: 'prod',
  /**
   * Bodies of these types reach handlers base64-encoded, byte for byte: multipart (curl -F) needs it, and for
   * JSON and forms it lets the handler refuse invalid UTF-8 instead of seeing it already replaced by U+FFFD.
   */
  binaryMediaTypes: ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'],
  /**
   * A REQUEST authorizer on the Authorization header (API Gateway answers 401 itself when the header is
   * missing). Decisions are cached per header value; the policy covers the whole stage.
   */
  authorizer: { type: 'REQUEST', identityHeader: 'Authorization', cacheTtlSeconds: 300 },
  /**
   * The answers API Gateway makes without a function (the stack's gateway responses; the local gateway gives the
   * same), keyed by API Gateway's response type.
   */
  gatewayResponses: {
    /** No or empty Authorization header, or the authorizer threw "Unauthorized". */
    UNAUTHORIZED: { status: 401, code: 'unauthorized', message: KEY_REQUIRED, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } },
    /** The authorizer returned a Deny policy (unknown or revoked key). */
    ACCESS_DENIED: {
      status: 403,
      code: 'unauthorized',
      message: 'The API key is not valid for this request.',
      headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
    },
    /** No resource or method matches: API Gateway's default is a confusing 403 "Missing Authentication Token". */
    MISSING_AUTHENTICATION_TOKEN: { status: 404, code: 'not_found', message: 'No such route.' },
    /** Over the stage's throttle or the key's usage plan. */
    THROTTLED: {
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests with this API key; retry after the number of seconds in Retry-After.',
      headers: { 'Retry-After': '1' },
    },
    /** The plan sets no quota today; should one be added, its refusal keeps our shape. */
    QUOTA_EXCEEDED: { status: 429, code: 'quota_exceeded', message: 'This API key has used its request quota for the period.' },
    /** The authorizer named no usage-plan key, or one that is not in the plan (a key issued before usage plans). */
    INVALID_API_KEY: {
      status: 403,
      code: 'unauthorized',
      message: 'This API key is not enabled for requests yet; ask the vidbot operator to enable it.',
    },
    REQUEST_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The request is larger than API Gateway accepts.' },
    /** The rest keep API Gateway's status code and get our body. */
    DEFAULT_4XX: { code: 'bad_request', message: 'The request could not be processed.' },
    DEFAULT_5XX: { code: 'internal_error', message: 'Something went wrong on our side.' },
  } satisfies Record<string, GatewayResponseDecl>,
  /**
   * Each API key's own request rate: an API Gateway usage plan, keyed by the usageIdentifierKey the authorizer
   * returns, so one busy key cannot spend the stage's whole throttle (50/s, bursts of 100; see the stack) and
   * starve the others: a key gets a fifth of it. 10/s is far above what a client needs (a create per second is
   * more videos than its in-progress limit lets it keep), and a burst of 20 lets it poll 20 videos at once.
   */
  usagePlan: { rateLimit: 10, burstLimit: 20 },
} as const;

/**
 * API Gateway has no path part ending in "/": a route declared with a trailing slash is served by the resource
 * without it (and the handler sees the raw path, slash included).
 */
export const apiResourcePath = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** One API Gateway method: a resource, an HTTP method, the function behind it, and whether it needs a key. */
export interface ApiMethod {
  resourcePath: string;
  method: Route['method'];
  function: string;
  auth: boolean;
  /** The declared paths it serves, e.g. both /v1/bot and /v1/bot/. */
  paths: string[];
}

/**
 * The methods the http functions' routes make, as both the stack and the local gateway build them. Routes that
 * land on one method must name one function and one auth; anything else is a wiring error, refused here.
 */
export function apiMethods(fns: Record<string, FunctionDecl> = functions): ApiMethod[] {
  const methods = new Map<string, ApiMethod>();
  for (const [name, decl] of Object.entries(fns)) {
    if (decl.trigger !== 'http') continue;
    for (const route of decl.routes as readonly Route[]) {
      const resourcePath = apiResourcePath(route.path);
      const key = `${route.method} ${resourcePath}`;
      const auth = route.auth !== 'none';
      const existing = methods.get(key);
      if (!existing) methods.set(key, { resourcePath, method: route.method, function: name, auth, paths: [route.path] });
      else if (existing.function !== name || existing.auth !== auth)
        throw new Error(
          `routes ${route.method} ${existing.paths[0]} and ${route.method} ${route.path} are one api gateway method but differ in function or auth`,
        );
      else existing.paths.push(route.path);
    }
  }
  return [...methods.values()];
}

/**
 * Every route with the function that serves it.
 * @internal Exported for its tests.
 */
export const routes = Object.entries(functions).flatMap(([name, fn]) =>
  fn.trigger === 'http' ? fn.routes.map((route) => ({ ...(route as Route), function: name as FunctionName })) : [],
);
