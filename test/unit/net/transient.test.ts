import { describe, expect, it } from 'vitest';
import {
  AddressNotAllowedError,
  FetchTimeoutError,
  HttpStatusError,
  InvalidUrlError,
  NetworkError,
  TooLargeError,
  TooManyRedirectsError,
} from '#commons/net/errors';
import { failureReport, isTransientError } from '#commons/net/transient';

const errno = (code: string, message = `${code} happened`) => Object.assign(new Error(message), { code });
const awsError = (name: string, httpStatusCode?: number, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`${name} from AWS`), { name, $fault: 'server', $metadata: { httpStatusCode }, ...extra });

describe('isTransientError', () => {
  const transient: [string, unknown][] = [
    ['ECONNRESET', errno('ECONNRESET')],
    ['ETIMEDOUT', errno('ETIMEDOUT')],
    ['EAI_AGAIN', errno('EAI_AGAIN')],
    ['EPIPE', errno('EPIPE')],
    ['socket hang up', new Error('socket hang up')],
    ['undici socket error', errno('UND_ERR_SOCKET')],
    ['ThrottlingException', awsError('ThrottlingException', 400)],
    ['ProvisionedThroughputExceededException', awsError('ProvisionedThroughputExceededException', 400)],
    ['RequestLimitExceeded', awsError('RequestLimitExceeded', 400)],
    ['SlowDown', awsError('SlowDown', 503)],
    ['ServiceUnavailable', awsError('ServiceUnavailable', 503)],
    ['InternalError', awsError('InternalError', 500)],
    ['TooManyRequestsException', awsError('TooManyRequestsException', 429)],
    ['any AWS 5xx', awsError('SomethingNew', 502)],
    ['any AWS 429', awsError('SomethingNew', 429)],
    ['SDK marked retryable', awsError('SomethingNew', 400, { $retryable: { throttling: false } })],
    ['ffmpeg killed by SIGKILL', Object.assign(new Error('ffmpeg was killed with signal SIGKILL'), { signal: 'SIGKILL', code: null })],
    ['exit status 137', Object.assign(new Error('exited with 137'), { exitCode: 137 })],
    ['network reset while fetching', new NetworkError('aborted', errno('ECONNRESET'))],
    ['background host 503', new HttpStatusError(503)],
    ['background host 429', new HttpStatusError(429)],
    ['wrapped cause', new Error('render failed', { cause: errno('ECONNRESET') })],
  ];
  it.each(transient)('%s is transient', (_label, err) => {
    expect(isTransientError(err)).toBe(true);
  });

  const fatal: [string, unknown][] = [
    ['background timeout', new FetchTimeoutError(30_000)],
    ['address refused', new AddressNotAllowedError('10.0.0.1', 'private')],
    ['invalid url', new InvalidUrlError('x', 'not a URL')],
    ['too large', new TooLargeError(100, 200)],
    ['too many redirects', new TooManyRedirectsError(3)],
    ['background host 404', new HttpStatusError(404)],
    ['background host 500', new HttpStatusError(500)],
    ['connection refused', new NetworkError('connect ECONNREFUSED', errno('ECONNREFUSED'))],
    ['unknown host', new NetworkError('cannot resolve', errno('ENOTFOUND'))],
    ['ENOSPC', errno('ENOSPC', 'ENOSPC: no space left on device, write')],
    ['AWS client error', awsError('ValidationException', 400)],
    ['DynamoDB condition', awsError('ConditionalCheckFailedException', 400)],
    ['S3 NoSuchKey', awsError('NoSuchKey', 404)],
    ['ffmpeg exit 1', Object.assign(new Error('ffmpeg exited with 1'), { exitCode: 1 })],
    ['plain Error', new Error('bad input')],
    ['string', 'oops'],
    ['null', null],
    ['undefined', undefined],
  ];
  it.each(fatal)('%s is not transient', (_label, err) => {
    expect(isTransientError(err)).toBe(false);
  });

  it('does not loop on a cyclic cause', () => {
    const err = new Error('a') as Error & { cause?: unknown };
    err.cause = err;
    expect(isTransientError(err)).toBe(false);
  });
});

describe('failureReport', () => {
  it('reports a transient failure with attempts left as a retry', () => {
    expect(failureReport(errno('ECONNRESET', 'read ECONNRESET'), { attempt: 1, maxAttempts: 3 })).toEqual({
      code: 'ECONNRESET',
      message: 'read ECONNRESET',
      transient: true,
      willRetry: true,
      fatal: false,
      attempt: 1,
      maxAttempts: 3,
    });
  });

  it('reports a transient failure on the last attempt as fatal', () => {
    expect(failureReport(awsError('ThrottlingException', 400), { attempt: 3, maxAttempts: 3 })).toMatchObject({
      code: 'ThrottlingException',
      transient: true,
      willRetry: false,
      fatal: true,
    });
  });

  it('uses our stable codes and truncates long messages', () => {
    expect(failureReport(new FetchTimeoutError(30_000), { attempt: 1, maxAttempts: 3 })).toMatchObject({
      code: 'timeout',
      transient: false,
      fatal: true,
    });
    expect(failureReport(new TooLargeError(1, 2), { attempt: 1, maxAttempts: 3 }).code).toBe('too_large');
    const long = failureReport(new Error('x'.repeat(2000)), { attempt: 1, maxAttempts: 3 });
    expect(long.code).toBe('internal_error');
    expect(long.message.length).toBeLessThanOrEqual(500);
    expect(failureReport(Object.assign(new Error('killed'), { signal: 'SIGKILL' }), { attempt: 1, maxAttempts: 3 })).toMatchObject({
      code: 'killed',
      willRetry: true,
    });
    expect(failureReport('just a string', { attempt: 2, maxAttempts: 3 })).toMatchObject({
      code: 'internal_error',
      message: 'just a string',
      fatal: true,
    });
  });
});
