import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import {
  ConflictError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  SignatureRejectedError,
  TooManyBatchesInProgressError,
  TooManyBotsInProgressError,
  TooManyPendingUploadsError,
  TooManyVideosInProgressError,
} from '#domain/errors';
import { ApiError, MethodNotAllowedError, RouteNotFoundError, UnauthorizedError } from './errors.ts';
import { runInvocation } from './invocation.ts';
import { logger } from './logger.ts';
import { unknownQueryProblems } from './query-parameters.ts';

/** The caller, as the authorizer established it (its context reaches handlers in requestContext.authorizer). */
interface Caller {
  tenantId: string;
  keyId: string;
  /** A test key (its account is a test account): what it makes is marked `test: true`. */
  test?: true;
}

export interface HttpRequest {
  method: string;
  /** The path exactly as the caller sent it (a trailing slash is significant: POST /v1/bot/ lists bots). */
  rawPath: string;
  pathParams: Record<string, string>;
  query: Record<string, string>;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: Buffer;
  requestId: string;
  /** Absolute base URL the caller used, e.g. https://abc.execute-api.eu-west-1.amazonaws.com/prod */
  baseUrl: string;
  caller?: Caller;
}

export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A request the authorizer let through with a key: its caller is known. */
export type KeyedRequest = HttpRequest & { caller: Caller };
/** A route behind the bearer key (every route but the few public ones). */
export type Operation = (request: KeyedRequest) => Promise<HttpResult>;
/** A route with no key (health, the inbox's receiving end): the caller may be unknown. */
export type PublicOperation = (request: HttpRequest) => Promise<HttpResult>;

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

export const json = (status: number, body: unknown, headers?: Record<string, string>): HttpResult => ({ status, body, headers });

function errorBody(error: ApiError) {
  return { error: { code: error.code, message: error.message, ...(error.details?.length ? { details: error.details } : {}) } };
}

function toProxyResult(result: HttpResult, requestId: string): APIGatewayProxyResult {
  return {
    statusCode: result.status,
    headers: { ...JSON_HEADERS, 'X-Request-Id': requestId, ...result.headers },
    body: result.body === undefined ? '' : JSON.stringify(result.body),
  };
}

/** API Gateway REST's event for a request: lower-cased headers, raw body bytes, the caller. */
function toHttpRequest(event: APIGatewayProxyEvent, context: Pick<Context, 'awsRequestId'>): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
  const body = event.body == null ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  const authorizer = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const caller =
    authorizer && typeof authorizer.tenantId === 'string' && typeof authorizer.keyId === 'string'
      ? {
          tenantId: authorizer.tenantId,
          keyId: authorizer.keyId,
          ...((authorizer.test === true || authorizer.test === 'true') && { test: true as const }),
        }
      : undefined;
  return {
    method: event.httpMethod.toUpperCase(),
    rawPath: event.path,
    pathParams: Object.fromEntries(Object.entries(event.pathParameters ?? {}).filter((e): e is [string, string] => e[1] !== undefined)),
    query: Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).filter((e): e is [string, string] => e[1] !== undefined)),
    headers,
    body,
    requestId: event.requestContext?.requestId ?? context.awsRequestId,
    baseUrl: baseUrlOf(event, headers),
    caller,
  };
}

function baseUrlOf(event: APIGatewayProxyEvent, headers: Record<string, string>): string {
  // The domain API Gateway served (not a client-sent header: X-Forwarded-Host passes through untouched and
  // would let a caller write any host into Location and the stored idempotent response).
  const host = event.requestContext?.domainName ?? headers.host ?? 'localhost';
  // API Gateway sets X-Forwarded-Proto itself (https; the local gateway sets http).
  const proto = headers['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  // On the execute-api domain the stage is part of the URL; on a custom domain or locally it is not.
  const stage = host.includes('.execute-api.') && event.requestContext?.stage ? `/${event.requestContext.stage}` : '';
  return `${proto}://${host}${stage}`;
}

/**
 * A REST handler serving the routes of one function. Keys are "METHOD /resource" with API Gateway's resource
 * template; a key whose path ends in "/" matches only requests whose raw path ends in "/" (API Gateway delivers
 * /v1/bot/ to the /v1/bot resource, and the two are different operations).
 */
export function httpHandler(keyed: Record<string, Operation>, publicRoutes: Record<string, PublicOperation> = {}) {
  return (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> =>
    runInvocation(context, () => serve(keyed, publicRoutes, event, context));
}

/** The operation of a route: a public one as it is; a keyed one refuses a request without a caller (401). */
function withCaller(operation: PublicOperation): PublicOperation {
  return (request) => {
    if (!request.caller) throw new UnauthorizedError();
    return operation(request);
  };
}

/** The operation, refusing a query parameter the route does not read (400) rather than ignoring it. */
function withKnownQuery(route: string, operation: PublicOperation): PublicOperation {
  return (request) => {
    const problems = unknownQueryProblems(route, request.query);
    if (problems.length) throw new InvalidRequestError(problems);
    return operation(request);
  };
}

async function serve(
  keyed: Record<string, Operation>,
  publicRoutes: Record<string, PublicOperation>,
  event: APIGatewayProxyEvent,
  context: Context,
): Promise<APIGatewayProxyResult> {
  const operations: Record<string, PublicOperation> = {
    ...Object.fromEntries(Object.entries(keyed).map(([key, operation]) => [key, withCaller(withKnownQuery(key, operation as PublicOperation))])),
    ...Object.fromEntries(Object.entries(publicRoutes).map(([key, operation]) => [key, withKnownQuery(key, operation)])),
  };
  const request = toHttpRequest(event, context);
  logger.appendKeys({ request_id: request.requestId, tenant_id: request.caller?.tenantId });
  const started = Date.now();
  let result: HttpResult;
  try {
    const trailing = request.rawPath.length > 1 && request.rawPath.endsWith('/') ? '/' : '';
    const resource = event.resource.replace(/\/$/, '');
    // The slash only matters where both forms are registered (POST /v1/bot vs POST /v1/bot/).
    const exactKey = `${request.method} ${resource}${trailing}`;
    const key = operations[exactKey] ? exactKey : `${request.method} ${resource}`;
    const operation = operations[key];
    if (!operation) {
      const allowed = Object.keys(operations)
        .filter((k) => k.split(' ')[1]?.replace(/\/$/, '') === resource)
        .map((k) => k.split(' ')[0]!);
      throw allowed.length
        ? new MethodNotAllowedError([...new Set(allowed)])
        : new RouteNotFoundError(`No route for ${request.method} ${request.rawPath}.`);
    }
    result = await operation(request);
  } catch (error) {
    result = errorResult(error);
  }
  logger.info('request', { method: request.method, path: request.rawPath, status: result.status, duration_ms: Date.now() - started });
  logger.removeKeys(['request_id', 'tenant_id']);
  return toProxyResult(result, request.requestId);
}

/** How one kind of domain error is answered: its status, code, message, details and headers. */
interface ErrorAnswer {
  kind: abstract new (...args: never[]) => Error;
  answer: (error: Error) => ApiError;
}
const answer = <E extends Error>(kind: abstract new (...args: never[]) => E, toApi: (error: E) => ApiError): ErrorAnswer => ({
  kind,
  answer: (error) => toApi(error as E),
});
const retryAfter = (seconds: number) => ({ 'Retry-After': String(seconds) });

/**
 * The domain's errors as HTTP answers: the one table of what went wrong to a status and a stable code. The domain
 * knows nothing of HTTP; the HTTP layer's own errors (a bad body, a missing key) are ApiErrors from the start.
 */
const DOMAIN_ERRORS: ErrorAnswer[] = [
  answer(InvalidRequestError, (e) => new ApiError(400, e.code, e.message, e.problems)),
  answer(NotFoundError, (e) => new ApiError(404, 'not_found', e.message)),
  answer(ForbiddenError, (e) => new ApiError(403, 'forbidden', e.message)),
  answer(ConflictError, (e) => new ApiError(409, e.code, e.message)),
  answer(SignatureRejectedError, (e) => new ApiError(401, 'invalid_signature', e.message)),
  answer(
    TooManyVideosInProgressError,
    (e) =>
      new ApiError(
        429,
        'too_many_videos_in_progress',
        `Your account already has ${e.limit} videos queued or rendering, the most it may have at once. ` +
          'Retry once one of them has completed or failed (GET /v1/video lists them); the limit can be raised on request.',
        undefined,
        retryAfter(e.retryAfterSeconds),
      ),
  ),
  answer(
    TooManyBotsInProgressError,
    (e) =>
      new ApiError(
        429,
        'too_many_bots_in_progress',
        `Your account already has ${e.limit} bots preparing, the most it may have at once. Retry once one of them is ready or failed (GET /v1/bot).`,
        undefined,
        retryAfter(e.retryAfterSeconds),
      ),
  ),
  answer(
    TooManyBatchesInProgressError,
    (e) =>
      new ApiError(
        429,
        'too_many_batches_in_progress',
        `Your account already has ${e.limit} batches queued or running, the most it may have at once. ` +
          'Retry once one of them has settled (GET /v1/batches), or cancel one (DELETE /v1/batches/{id}).',
        undefined,
        retryAfter(e.retryAfterSeconds),
      ),
  ),
  answer(
    TooManyPendingUploadsError,
    (e) =>
      new ApiError(
        429,
        'too_many_pending_uploads',
        `Your account already has ${e.limit} uploads asked for and not yet used, the most it may have at once. ` +
          'Use one of them (audio_upload, video_upload), withdraw one (DELETE /v1/uploads/{upload_id}), or retry once one has expired (a day after it was asked for).',
        undefined,
        retryAfter(e.retryAfterSeconds),
      ),
  ),
];

function fromDomain(error: unknown): ApiError | undefined {
  const known = DOMAIN_ERRORS.find((entry) => error instanceof entry.kind);
  return known?.answer(error as Error);
}

/** The one place errors become responses. Unknown errors are logged in full and answered with a bare 500. */
function errorResult(error: unknown): HttpResult {
  const known = error instanceof ApiError ? error : fromDomain(error);
  if (known) return json(known.status, errorBody(known), known.headers);
  logger.error('unhandled error', error as Error);
  return json(500, { error: { code: 'internal_error', message: 'Something went wrong on our side; the error has been logged.' } });
}
