/** The console's Content-Security-Policy: requests may go to the API's own origin and the media bucket's, nowhere else. */
import type { APIGatewayProxyResult, Handler } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext, restEvent } from '../../support/events.ts';

const BASE_ENV = { BUCKET_NAME: 'vidbot-media', AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' };

async function connectSources(env: Record<string, string>): Promise<string[]> {
  for (const [name, value] of Object.entries({ ...BASE_ENV, ...env })) vi.stubEnv(name, value);
  vi.resetModules();
  const { handler } = (await import('../../../functions/api/console.ts')) as { handler: Handler };
  const result = (await handler(restEvent({ method: 'GET', path: '/' }), lambdaContext(), () => undefined)) as APIGatewayProxyResult;
  const csp = String(result.headers?.['Content-Security-Policy']);
  const directive = csp.split('; ').find((d) => d.startsWith('connect-src '));
  return directive!.split(' ').slice(1);
}

describe('console Content-Security-Policy', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("on AWS, connects to 'self' and the bucket's regional endpoint only", async () => {
    vi.stubEnv('AWS_ENDPOINT_URL_S3', '');
    expect(await connectSources({})).toEqual(["'self'", 'https://vidbot-media.s3.eu-west-1.amazonaws.com']);
  });

  it("locally, connects to 'self' and the S3 emulator's origin only", async () => {
    expect(await connectSources({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4569', S3_FORCE_PATH_STYLE: 'true' })).toEqual([
      "'self'",
      'http://127.0.0.1:4569',
    ]);
  });
});
