/**
 * GET /: the console, one self-contained HTML page (script and styles inline, built from console/ by
 * `npm run build:console` into console-page.ts). It needs no key to load; it asks for one and calls the public
 * API with it like any other client. Its Content-Security-Policy allows exactly its own inline script and style
 * (by hash) and requests to this origin and the media bucket's, where the presigned links the API hands out point.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { s3UploadSigningClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { observed } from '#commons/invocation';
import { consolePage } from './console-page.ts';

const config = loadConfig({ bucket: true });

/** Built on the first request (signing is local, no network) and kept for the container's life; a failure is tried again. */
let policy: Promise<string> | undefined;
const contentSecurityPolicy = () =>
  (policy ??= new S3ObjectStore(s3UploadSigningClient(), config.bucket)
    .linkOrigin()
    .then(policyFor)
    .catch((error: unknown) => {
      policy = undefined;
      throw error;
    }));

const policyFor = (bucketOrigin: string) =>
  [
    "default-src 'none'",
    `script-src '${consolePage.scriptHash}'`,
    `style-src '${consolePage.styleHash}'`,
    // A recording is PUT to its presigned upload link and a video's words file read from its presigned link: the
    // media bucket, and only it: the API key is in sessionStorage. The link is its own authorisation; the bucket's
    // CORS admits it.
    `connect-src 'self' ${bucketOrigin}`,
    // Bot previews, finished videos and their captions tracks are presigned object-store links: another origin
    // (http locally). blob: is a file from the person's own disk or recorded on the page (a photo, a recording),
    // shown before it is sent.
    'img-src https: http: data: blob:',
    'media-src https: http: blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

export const handler = observed(async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  if (event.httpMethod !== 'GET')
    return {
      statusCode: 405,
      headers: { Allow: 'GET', 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: { code: 'method_not_allowed', message: 'Method not allowed here; use GET.' } }),
    };
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': await contentSecurityPolicy(),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: consolePage.html,
  };
});
